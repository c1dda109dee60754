import type { Filter, ReadCollection } from '@telemed/platform';
import { RequestValidationError } from '@telemed/platform';
import type { AppointmentDoc } from '../projections';

/** Where a page of appointments continues: the (start, id) of the last item of the previous page. */
export interface AppointmentCursor {
  start: string;
  id: string;
}

/**
 * The cursor named by a `cursor` query parameter (an appointment id), if the caller may see that appointment; an
 * unknown or foreign id is a validation error, so a cursor tells nothing about appointments the caller cannot read.
 */
export async function appointmentCursor(
  appointments: ReadCollection<AppointmentDoc>,
  id: string | undefined,
  visible: (doc: AppointmentDoc) => boolean | Promise<boolean>,
): Promise<AppointmentCursor | null> {
  if (id === undefined) return null;
  const doc = await appointments.get(id);
  if (!doc || !(await visible(doc))) {
    throw new RequestValidationError([{ loc: ['query', 'cursor'], msg: 'Not an appointment of this list', type: 'invalid_cursor' }]);
  }
  return { start: doc.start, id: doc._id };
}

/** Documents after the cursor in the order (start, _id) ascending (1) or descending (-1). */
export function keysetAfter(cursor: AppointmentCursor | null, direction: 1 | -1): Filter {
  if (!cursor) return {};
  const beyond = direction === 1 ? '$gt' : '$lt';
  return { $or: [{ start: { [beyond]: cursor.start } }, { start: cursor.start, _id: { [beyond]: cursor.id } }] };
}
