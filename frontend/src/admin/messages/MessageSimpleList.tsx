import { SimpleList } from 'react-admin';
import { joined, unbroken, wrappingListSx, RECORD_LIST } from '../responsive';
import { ResendButton } from './ResendButton';
import { CHANNELS, KINDS, STATUSES, WHEN, said, type MessageRow } from './labels';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

/** Messages on a phone: one record a row of wrapped lines (kind; when, channel, recipient, attempts, error; status), Resend where allowed. */
export function MessageSimpleList() {
  const t = useT();
  const f = useFormat();
  return (
    <SimpleList<MessageRow>
      rowClick={false}
      className={RECORD_LIST}
      sx={wrappingListSx}
      primaryText={(m) => said(t, KINDS, m.kind)}
      tertiaryText={(m) => said(t, STATUSES, m.status)}
      secondaryText={(m) =>
        joined(unbroken(f.date(m.updated_at, WHEN)), said(t, CHANNELS, m.channel), m.to_masked, t('admin.attemptsLine', { attempts: m.attempts }), m.last_error)
      }
      rightIcon={() => <ResendButton />}
    />
  );
}
