import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds `.openapi(...)` to every zod schema; done once here so every importer of `z` from contracts has it.
extendZodWithOpenApi(z);

export { z };
