/**
 * Where code that reads the wall-clock time takes it from, so a test can set it: the instant events are stamped with,
 * tokens are issued and checked at, and timer-driven work compares with. Production passes `systemClock`.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
