import { Alert, Box, Button, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { useT } from '../../i18n/useT';
import { formatBytes } from './rules';

export const REPORT_ACCEPT = '.pdf,.jpg,.jpeg,.png,.doc,.docx,.dcm,.dicom,application/dicom';

/**
 * The reports' files: a drop zone with Choose files, why a file was refused, and the chosen files each with its remove
 * button; nothing can be added or removed while uploading.
 */
export function ReportFilesPicker({ files, errors, uploading, onPick, onChange }: { files: File[]; errors: string[]; uploading: boolean; onPick(picked: File[]): void; onChange(next: File[]): void }) {
  const t = useT();
  return (
    <>
      <Box
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          if (!uploading) onPick(Array.from(e.dataTransfer.files));
        }}
        sx={{ border: 2, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 2, p: 2, textAlign: 'center' }}
      >
        <UploadFileOutlined color="primary" aria-hidden />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('records.reportFileTypes')}
        </Typography>
        <Button variant="outlined" component="label" disabled={uploading}>
          {t('records.chooseFiles')}
          <input
            hidden
            type="file"
            multiple
            accept={REPORT_ACCEPT}
            aria-label={t('records.reportFiles')}
            onChange={(e) => {
              onPick(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </Button>
      </Box>
      {errors.map((message) => (
        <Alert severity="error" key={message}>
          {message}
        </Alert>
      ))}
      {files.length > 0 && (
        <List dense aria-label={t('records.chosenFiles')} sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
          {files.map((file) => (
            <ListItem
              key={`${file.name}-${file.size}`}
              secondaryAction={
                <IconButton edge="end" aria-label={t('records.removeItem', { name: file.name })} disabled={uploading} onClick={() => onChange(files.filter((f) => f !== file))}>
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <ListItemText primary={file.name} secondary={formatBytes(file.size)} slotProps={{ primary: { noWrap: true } }} />
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
