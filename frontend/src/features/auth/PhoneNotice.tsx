import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';

/** "Continue with Phone": the Coming Soon notice. */
export function PhoneNotice({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>Coming Soon</DialogTitle>
      <DialogContent>Phone login will be available soon. Please continue with Google.</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>OK</Button>
      </DialogActions>
    </Dialog>
  );
}
