import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { storeBrandCatalogue, systemContext } from '@telemed/command';
import { brandEntry, generatedBrandRows, loadNlem } from '@telemed/medicines';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * A large brand catalogue import (issue 14): the server's medicine index over NLEM and 150 000 generated brands takes
 * seconds to build (2–5 s for 250 000 on a quiet machine). It is built in a worker thread, so the server keeps
 * answering meanwhile: /healthz is asked every 25 ms from the import until the search finds the new brands, and
 * the answers keep coming. The test and the server share one event loop, so a blocked server would show here.
 */

const BRANDS = 150_000;
/** Longest time between two /healthz answers while the index is built (a build on the event loop: seconds). */
const MAX_GAP_MS = 750;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a large medicine catalogue import does not stall the server', () => {
  let t: TestApp;
  let doctor: TestUser;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
  });
  after(() => t.close());

  it(`/healthz answers while the index of NLEM and ${BRANDS} generated brands is built`, async () => {
    const nlem = loadNlem();
    const entries = generatedBrandRows(BRANDS, nlem, 21).map((row) => brandEntry(row, nlem));
    const probe = entries.at(-1)!;
    const search = async () => (await t.http.get(`/api/v1/medicines/search?q=${encodeURIComponent(probe.name)}&limit=50`).set(doctor.auth).expect(200)).body as Array<{ id: string }>;
    assert.ok(!(await search()).some((m) => m.id === probe.id), 'not there before the import');

    // What `npm run cli -- medicines:import` stores once the file is checked: the entries as one blob, and the event.
    await storeBrandCatalogue({ eventStore: t.app.eventStore, blobs: t.app.blobs }, entries, 'generated', systemContext(new Date(), null));

    // When each /healthz was answered: the longest time between two answers is the longest the server (and this
    // test, on the same event loop) went without answering, whether a request waited or a timer fired late.
    const answered: number[] = [performance.now()];
    let done = false;
    const healthz = (async () => {
      while (!done) {
        await t.http.get('/healthz').expect(200);
        answered.push(performance.now());
        await sleep(25);
      }
    })();
    const started = performance.now();
    // The catalogue looks for a new import every 5 s; a search then waits for the new index (others are answered).
    while (!(await search()).some((m) => m.id === probe.id)) await sleep(100);
    const took = performance.now() - started;
    done = true;
    await healthz;

    const gaps = answered.slice(1).map((at, i) => at - answered[i]!);
    const worst = Math.max(...gaps);
    assert.ok(gaps.length >= 10, `/healthz answered ${gaps.length} times in ${Math.round(took)} ms`);
    assert.ok(worst < MAX_GAP_MS, `the longest wait for a /healthz answer was ${Math.round(worst)} ms (${gaps.length} answers while the import took ${Math.round(took)} ms)`);
  });
});
