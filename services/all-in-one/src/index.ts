export { createApp, type App, type AppOptions } from './app';
export { seedDemoData } from './demo-data';
