export * from './zod';
export * from './constants';
export * from './texts';
export * from './events';
export * from './api';
export * from './errors';
export * from './slot-time';
export * from './institutions';
