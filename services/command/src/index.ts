import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ApiRouter, type TokenService } from '@telemed/platform';
import type { CommandDeps } from './context';
import { userRoutes } from './users/routes';
import { scheduleRoutes } from './schedule/routes';
import { appointmentRoutes } from './appointments/routes';

export { registerUser, loadUser, type NewUser } from './users/service';
export { setAvailability } from './schedule/service';
export { requestAppointment, changeAppointment } from './appointments/service';
export { startSlotReleaser } from './process-managers/release-slots';
export { startSweeps, expireStaleRequests, healOrphanedReservations, type SweepLookups } from './process-managers/sweeps';
export { systemContext, handleCommand, readStream, type CommandContext, type Decider } from './decider';
export { slotIdFor, slotStartFromId } from './schedule/slot-id';
export type { CommandDeps } from './context';

/** The write side's HTTP API: every route appends events through a decider. */
export function createCommandService(deps: CommandDeps & { tokens: TokenService; registry: OpenAPIRegistry }) {
  const api = new ApiRouter({ tokens: deps.tokens, registry: deps.registry, basePath: '/api/v1' });
  userRoutes(api, deps);
  scheduleRoutes(api, deps);
  appointmentRoutes(api, deps);
  return api.router;
}
export { startRelay, eventSubject } from './relay';
