import assert from 'node:assert/strict';
import { GenerationalReadStore, physicalName, type ReadCollection } from '@telemed/platform';
import type { TestApp } from './test-app';

/**
 * How many documents of one read-model collection the read store handed out (each found one, each got one) while
 * `work` ran: what a route read to answer, for tests that a page costs what it shows.
 */
export async function documentsRead(t: TestApp, collectionName: string, work: () => Promise<unknown>): Promise<number> {
  // The store under the generations' names (which hand out a new handle each time) keeps one collection per name.
  const store = t.app.readStore;
  assert.ok(store instanceof GenerationalReadStore, 'the app reads through generations');
  const collection: ReadCollection<{ _id: string }> = store.inner.collection(physicalName(collectionName, store.generationOf(collectionName)));
  const { find, get } = collection;
  let read = 0;
  collection.find = async (...args) => {
    const docs = await find.apply(collection, args);
    read += docs.length;
    return docs;
  };
  collection.get = async (...args) => {
    const doc = await get.apply(collection, args);
    if (doc) read += 1;
    return doc;
  };
  try {
    await work();
  } finally {
    collection.find = find;
    collection.get = get;
  }
  return read;
}
