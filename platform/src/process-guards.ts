import type { Logger } from './logger';

/**
 * The last line of defence. Requests, sockets, subscribers and timers contain their own errors; what still escapes
 * is logged here. A rejected promise nobody awaited is one failed operation: logged, the process keeps serving. An
 * uncaught exception leaves the process in an unknown state: logged, then the process exits with code 1 so its
 * supervisor (the container's restart policy) starts a clean one, which resumes from the event log.
 */
export function installProcessGuards(logger: Logger, beforeExit: () => Promise<void> = async () => {}): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection (contained)');
  });
  let exiting = false;
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception: exiting for a clean restart');
    if (exiting) return;
    exiting = true;
    const deadline = setTimeout(() => process.exit(1), 3000);
    deadline.unref();
    beforeExit().finally(() => process.exit(1));
  });
}
