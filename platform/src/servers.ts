/**
 * The adapters of the production servers (EventStoreDB, MongoDB, NATS), on a subpath of their own: a process on the
 * embedded defaults never loads their drivers (about 400 modules, most of a second of every start and every test
 * file). The configuration's factories import them only when their URL is set.
 */
export { EventStoreDbEventStore } from './event-store/eventstoredb';
export { MongoReadStore } from './read-store/mongodb';
export { NatsBus, type NatsBusOptions } from './bus/nats';
export { MongoKeyStore } from './keystore/mongodb';
export { GridFsBlobStore } from './blobs/gridfs';
