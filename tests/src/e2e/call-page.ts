import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** What the video e2e tests read off a call page. */

/** Start Consultation, once it can be pressed (the page's CSP forbids waitForFunction's string evaluation). */
export const startEnabled = (page: Page) => page.locator('button:has-text("Start Consultation"):enabled');

/** Frames the page's remote <video> has shown so far (decoded and presented); -1 without one. */
export async function remoteFrames(page: Page): Promise<number> {
  return (await page.evaluate(`(() => {
    const video = document.querySelector('[data-testid="remote-tile-video"]');
    return video ? video.getVideoPlaybackQuality().totalVideoFrames : -1;
  })()`)) as number;
}

/** The call's debug console as text, to say what the page saw when an assertion fails. */
export async function debugLog(page: Page): Promise<string> {
  try {
    await page.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Settings', exact: true }).click({ timeout: 5000 });
    const dialog = page.getByRole('dialog', { name: 'Debug Console' });
    const text = await dialog.innerText({ timeout: 5000 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click({ timeout: 5000 });
    return text;
  } catch (error) {
    return `(no call on screen: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/** The other side's video is actually playing: its frame count grows. */
export async function remoteVideoPlays(page: Page, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let first = -1;
  for (;;) {
    const frames = await remoteFrames(page);
    if (first < 0 && frames > 0) first = frames;
    if (first > 0 && frames >= first + 10) return;
    if (Date.now() > deadline) assert.fail(`the remote video did not play (frames ${first} → ${frames}); the call's debug log:\n${await debugLog(page)}`);
    await page.waitForTimeout(250);
  }
}

/**
 * The other side's first video frame is on every one of `pages` within `withinMs` of `since` (a performance.now()
 * reading): the time it took. A failure says how far each page got and what their debug consoles saw.
 */
export async function firstFramesWithin(pages: Page[], since: number, withinMs: number): Promise<number> {
  const arrived = new Map<Page, number>();
  for (;;) {
    for (const page of pages) if (!arrived.has(page) && (await remoteFrames(page)) > 0) arrived.set(page, performance.now() - since);
    if (arrived.size === pages.length) return Math.max(...arrived.values());
    if (performance.now() - since > withinMs) {
      const logs = await Promise.all(
        pages.map(async (page, i) => {
          const after = arrived.get(page);
          return `--- page ${i + 1} (${after === undefined ? 'no frame' : `first frame after ${Math.round(after)} ms`}):\n${await debugLog(page)}`;
        }),
      );
      assert.fail(`the other side's video did not arrive on every page within ${withinMs} ms:\n${logs.join('\n')}`);
    }
    await pages[0]!.waitForTimeout(50);
  }
}
