import { Button, Datagrid, List, NumberField, TextField, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { httpClient } from '../providers';

function RebuildButton() {
  const record = useRecordContext();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const rebuild = async () => {
    try {
      await httpClient(`/api/v1/admin/projections/${encodeURIComponent(String(record.id))}/rebuild`, { method: 'POST' });
      notify(`Rebuilding ${String(record.name)}`);
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return <Button label="Rebuild" onClick={(e) => { e.stopPropagation(); void rebuild(); }} />;
}

export const ProjectionList = () => (
  <List pagination={false} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid bulkActionButtons={false} rowClick={false}>
      <TextField source="name" />
      <NumberField source="version" />
      <NumberField source="position" label="Checkpoint" />
      <NumberField source="lag" label="Lag" />
      <TextField source="checksum" />
      <RebuildButton />
    </Datagrid>
  </List>
);

export const projections = { list: ProjectionList };
