import { useState } from 'react';
import { Button, useCanAccess, useNotify, useRecordContext, useRefresh } from 'react-admin';
import SendIcon from '@mui/icons-material/Send';
import { call } from '../../lib/client';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

type MessageRow = ApiRoutes['listMessages']['response'][number];

/**
 * Sends a message that failed for good again (POST /admin/messages/:id/resend, on the app's one transport as the
 * projections' Rebuild): shown only on a failed message, to those who may act on the log. The list is read again
 * after it, from the write on (the transport's X-Min-Position), so the row shows the message queued.
 */
export function ResendButton() {
  const record = useRecordContext<MessageRow>();
  const { canAccess } = useCanAccess({ resource: 'messages', action: 'edit' });
  const notify = useNotify();
  const refresh = useRefresh();
  const t = useT();
  const explain = useErrorText();
  const [asking, setAsking] = useState(false);
  if (!record || record.status !== 'failed' || !canAccess) return null;
  const resend = async () => {
    setAsking(true);
    try {
      await call('resendMessage', { params: { message_id: record.id } });
      notify(t('admin.resendQueued'), { type: 'success' });
      refresh();
    } catch (error) {
      // A 409 (it is no longer failed: sent again from another console) is said by its code in the chosen language.
      notify(explain(error, 'admin.resendFailed'), { type: 'error' });
    } finally {
      setAsking(false);
    }
  };
  return (
    <Button
      label={t('admin.resend')}
      disabled={asking}
      onClick={(e) => {
        e.stopPropagation();
        void resend();
      }}
    >
      {/* On a phone react-admin's Button is its icon alone (the label its name). */}
      <SendIcon />
    </Button>
  );
}
