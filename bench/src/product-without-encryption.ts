import { EncryptingEventStore, type AppendOptions, type NewEvent, type SubscribeOptions } from '@telemed/platform';

/**
 * The 'before' of the encryption figure, for benchmarks only: the product exactly as `npm start` composes it, except
 * that its event store passes events through to the log unchanged (no personal field encrypted or decrypted). Only
 * this entry does so; the product has no setting that turns encryption off.
 */
EncryptingEventStore.prototype.appendToStream = function (this: EncryptingEventStore, stream: string, events: NewEvent[], options?: AppendOptions) {
  return this.log.appendToStream(stream, events, options);
};
EncryptingEventStore.prototype.readStream = function (this: EncryptingEventStore, stream: string) {
  return this.log.readStream(stream);
};
EncryptingEventStore.prototype.readAll = function (this: EncryptingEventStore, options: { fromPosition: number; limit: number }) {
  return this.log.readAll(options);
};
EncryptingEventStore.prototype.subscribeToAll = function (this: EncryptingEventStore, options: SubscribeOptions) {
  return this.log.subscribeToAll(options);
};
await import('../../services/all-in-one/src/main');
