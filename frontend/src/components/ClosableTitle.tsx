import CloseIcon from '@mui/icons-material/Close';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useT } from '../i18n/useT';

/** A dialog title with a close button (the dialog also closes with Escape). */
export function ClosableTitle({ id, children, onClose }: { id: string; children: string; onClose: () => void }) {
  const t = useT();
  return (
    <DialogTitle id={id} sx={{ pr: 6 }}>
      {children}
      <IconButton aria-label={t('patient.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <CloseIcon />
      </IconButton>
    </DialogTitle>
  );
}
