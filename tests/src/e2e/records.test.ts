import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import type { startServerProcess } from '../support/processes';
import { VIEWPORTS, chromiumMissing, launchChromium, screenshot, signInWithGoogle, startDemoProduct, bearer, confirmedAppointment } from './browser';

/**
 * Clinical records in the browser (issue 14): the patient uploads a report from /home's Medical Reports tile (type
 * pre-selected from the file's name), finds it in the tile's modal and downloads it byte for byte; a doctor, in the
 * call, saves notes ('Notes saved! ✅'), sees that report among the patient's records, builds a prescription from the
 * medicine suggestions by keyboard and issues it; after the call the summary's Add Notes opens; the patient downloads
 * the prescription's PDF from the Prescriptions tile and its QR page says it is genuine; notes written on the dashboard
 * ask before Back drops them and save themselves as a draft. Screenshots at 1280 and 390.
 */

const context: BrowserContextOptions = { timezoneId: 'Asia/Kolkata', locale: 'en-IN', acceptDownloads: true, permissions: ['camera', 'microphone'] };
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(64)]);
type Server = Awaited<ReturnType<typeof startServerProcess>>;

async function reportCount(page: Page): Promise<number> {
  const tile = page.getByTestId('reports-tile-count');
  await tile.waitFor();
  return Number(await tile.innerText());
}

/** WCAG 2.1 A/AA violations in `selector` (axe), and a page wider than the window: each said in one line. */
async function accessibilityProblems(page: Page, label: string, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const problems = result.violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
  if (overflow > 1) problems.push(`${label}: the page is ${overflow}px wider than the window`);
  return problems;
}

describe('clinical records in the browser (issue 14)', { skip: chromiumMissing }, () => {
  let server: Server;
  let browser: Browser;
  let base: string;

  before(async () => {
    ({ server, base } = await startDemoProduct({ CONSULTATION_EARLY_JOIN_MINUTES: '1440', ICE_SERVERS: '[]' }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  for (const [kind, viewport] of Object.entries(VIEWPORTS)) {
    it(`${kind}: the patient uploads a report from /home, sees it in the Medical Reports tile and downloads it`, async () => {
      const page = await (await browser.newContext({ ...context, viewport })).newPage();
      await signInWithGoogle(page, base, 'patient@demo.telemed.local');
      const before = await reportCount(page);
      await screenshot(page, 'records-home-tiles');

      await page.getByTestId('reports-tile').getByRole('button', { name: 'Upload Reports' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upload Medical Reports' });
      await dialog.getByLabel('Report files').setInputFiles([{ name: `chest-xray-${kind}.png`, mimeType: 'image/png', buffer: PNG }]);
      await dialog.getByText(`chest-xray-${kind}.png`).waitFor();
      assert.equal(await dialog.getByRole('combobox', { name: /Report type/ }).innerText(), 'X-Ray', 'the type is pre-selected from the name');
      // The same file again is ignored.
      await dialog.getByLabel('Report files').setInputFiles([{ name: `chest-xray-${kind}.png`, mimeType: 'image/png', buffer: PNG }]);
      assert.equal(await dialog.getByRole('list', { name: 'Chosen files' }).getByRole('listitem').count(), 1);
      await dialog.getByLabel('Medical facility').fill('City Diagnostics, Pune');
      await screenshot(page, 'records-upload-reports');
      const problems = await accessibilityProblems(page, `${kind} upload reports`, '[role="dialog"]');
      await dialog.getByRole('button', { name: 'Upload Reports' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 15_000 });
      await page.getByTestId('reports-tile-count').getByText(String(before + 1)).waitFor();

      await page.getByRole('button', { name: 'View Medical Reports' }).click();
      const reports = page.getByRole('dialog', { name: 'Medical Reports' });
      await reports.getByText('City Diagnostics, Pune').first().waitFor();
      await screenshot(page, 'records-medical-reports');
      problems.push(...(await accessibilityProblems(page, `${kind} medical reports`, '[role="dialog"]')));
      assert.deepEqual(problems, []);
      const [download] = await Promise.all([page.waitForEvent('download'), reports.getByRole('button', { name: `Download chest-xray-${kind}.png` }).click()]);
      assert.equal(download.suggestedFilename(), `chest-xray-${kind}.png`);
      assert.deepEqual(await readFile((await download.path())!), PNG, 'the file comes back as it was sent');
      await page.context().close();
    });
  }

  it('a doctor saves notes and issues a prescription in the call; the patient downloads its PDF from the Prescriptions tile', async () => {
    const doctor = await (await browser.newContext({ ...context, viewport: VIEWPORTS.desktop })).newPage();
    const patient = await (await browser.newContext({ ...context, viewport: VIEWPORTS.desktop })).newPage();
    await signInWithGoogle(doctor, base, 'doctor1@demo.telemed.local');
    await signInWithGoogle(patient, base, 'patient@demo.telemed.local');
    const appointmentId = await confirmedAppointment(base, patient, doctor);
    // Asking for the notes before any are saved is no failure: the browser logs none (it logs every 4xx it loads).
    const notesLoaded = doctor.waitForResponse((res) => res.request().method() === 'GET' && new URL(res.url()).pathname === `/api/v1/consultations/${appointmentId}/notes`, { timeout: 30_000 });

    await doctor.goto(`${base}/video-call?appointment_id=${appointmentId}`);
    await doctor.locator('button:has-text("Start Consultation"):enabled').click({ timeout: 20_000 });
    // The patient comes too: a consultation only its doctor attended is not completed by its end (issue 35, no-shows).
    await patient.goto(`${base}/video-call?appointment_id=${appointmentId}`);
    await patient.locator('button:has-text("Start Consultation"):enabled').click({ timeout: 20_000 });
    const panel = doctor.getByTestId('call-records-panel');
    await panel.waitFor({ timeout: 20_000 });

    // The report the patient uploaded is among their records.
    await panel.getByTestId('patient-reports').getByText('X-Ray').first().waitFor();

    const firstNotesLoad = await notesLoaded;
    assert.deepEqual([firstNotesLoad.status(), await firstNotesLoad.json()], [200, null], 'no notes yet: 200 null, not a failed request');
    await panel.getByLabel('Consultation notes').fill('Viral fever; no red flags. Fluids and rest.');
    await panel.getByRole('button', { name: 'Save Notes' }).click();
    await panel.getByText('Notes saved! ✅').waitFor();

    const medicine = panel.getByRole('combobox', { name: /Medicine/ });
    await medicine.pressSequentially('parac', { delay: 40 });
    // The suggestions for what was typed (not the list still loading or an earlier prefix's): then the first is picked.
    await panel.getByRole('listbox', { name: 'Medicine suggestions' }).getByRole('option', { name: /paracetamol/i }).first().waitFor();
    await medicine.press('ArrowDown');
    await medicine.press('Enter');
    assert.match(await medicine.inputValue(), /paracetamol/i);
    // The strength is one the catalogue lists for the picked medicine, chosen from them.
    await panel.getByRole('combobox', { name: /^Strength/ }).click();
    const strengths = doctor.getByRole('listbox').getByRole('option');
    const strength = (await strengths.first().innerText()).trim();
    await strengths.first().click();
    await panel.getByLabel(/Dosage/).fill('1 tablet');
    await panel.getByLabel('Duration').fill('3');
    await panel.getByLabel(/Instructions/).fill('after food');
    await panel.getByRole('button', { name: 'Add' }).click();
    await panel.getByTestId('session-lines').getByText(new RegExp(`Paracetamol ${strength}`, 'i')).waitFor();
    assert.equal(await medicine.inputValue(), '', 'the form resets after Add');
    await panel.getByLabel('Patient age (years)').fill('34');
    await panel.getByLabel(/Provisional diagnosis/).fill('Viral fever');
    await screenshot(doctor, 'records-call-panel');
    assert.deepEqual(await accessibilityProblems(doctor, 'call panel', '[data-testid="call-records-panel"]'), []);
    await panel.getByRole('button', { name: 'Issue Prescription' }).click();
    await panel.getByText('Prescription issued and shared with the patient.').waitFor({ timeout: 15_000 });
    await doctor.setViewportSize(VIEWPORTS.phone);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(doctor, 'records-call-panel');
    await doctor.setViewportSize(VIEWPORTS.desktop);

    await doctor.getByRole('button', { name: 'End Call' }).click();
    await doctor.getByTestId('consultation-summary').waitFor({ timeout: 15_000 });
    await doctor.getByRole('button', { name: 'Add Notes' }).click();
    const notes = doctor.getByRole('dialog', { name: 'Consultation Notes' });
    await notes.getByLabel('Patient name').waitFor();
    // The in-call notes are the starting point of the notes modal.
    await notes.getByText('Viral fever; no red flags. Fluids and rest.').waitFor();
    await doctor.waitForTimeout(400); // the dialog's opening transition
    await screenshot(doctor, 'records-summary-notes');
    await notes.getByRole('button', { name: 'Close' }).click();
    await notes.waitFor({ state: 'detached' });
    await doctor.getByRole('button', { name: 'Upload Prescription' }).click();
    await doctor.getByRole('dialog', { name: 'Upload Prescription' }).getByLabel(/Patient name/).waitFor();
    await doctor.waitForTimeout(400);
    await screenshot(doctor, 'records-summary-upload-prescription');

    // The dashboard keeps the summary's actions for consultations already held.
    await doctor.goto(`${base}/doctor-home`);
    const recent = doctor.getByTestId('recent-consultations');
    await recent.getByRole('button', { name: /Add Notes for/ }).first().waitFor({ timeout: 15_000 });
    await recent.scrollIntoViewIfNeeded();
    await screenshot(doctor, 'records-doctor-dashboard');
    await doctor.setViewportSize(VIEWPORTS.phone);
    await screenshot(doctor, 'records-doctor-dashboard');
    await doctor.setViewportSize(VIEWPORTS.desktop);

    // Notes being written are not lost (issue 31 item 8): Back with the writing not saved yet asks; Keep editing keeps
    // it, and the writing saves itself as a draft (Saving…, then Saved) that the doctor finds again later.
    const plan = 'Paracetamol and fluids for three days; review if fever persists.';
    // Through the app's own navigation, so that Back stays in the app (a page loaded by goto is another document).
    await doctor.getByRole('navigation').getByRole('link', { name: /My Appointments/ }).click();
    await doctor.waitForURL(/\/my-appointments/);
    await doctor.getByRole('navigation').getByRole('link', { name: 'Doctor Dashboard' }).click();
    await recent.getByRole('button', { name: /Add Notes for/ }).first().click();
    const draftNotes = doctor.getByRole('dialog', { name: 'Consultation Notes' });
    await draftNotes.getByText('Viral fever; no red flags. Fluids and rest.').waitFor();
    // The draft's save is held until the question is answered: on a loaded machine the 2 s before it saves itself may
    // pass before Back, and the writing is unsaved until the server has answered.
    let releaseSave = () => {};
    const saveHeld = new Promise<void>((resolve) => (releaseSave = resolve));
    await doctor.route(`**/api/v1/consultations/${appointmentId}/notes`, async (route) => {
      if (route.request().method() === 'PUT') await saveHeld;
      await route.continue();
    });
    await draftNotes.getByLabel('Treatment plan').fill(plan);
    // Back only once the page shows the writing as unsaved: on a loaded machine a Back sent before that render went
    // through unasked (the rehearsal's failure), the question never armed.
    await draftNotes.getByTestId('autosave-status').filter({ hasText: /^Saving/ }).waitFor({ timeout: 15_000 });
    await doctor.evaluate('history.back()');
    const question = doctor.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await question.waitFor({ timeout: 15_000 });
    await question.getByRole('button', { name: 'Keep editing' }).click();
    await question.waitFor({ state: 'detached' });
    releaseSave();
    assert.equal(new URL(doctor.url()).pathname, '/doctor-home', 'Keep editing stays on the page');
    assert.equal(await draftNotes.getByLabel('Treatment plan').inputValue(), plan, 'and keeps the writing');
    await draftNotes.getByTestId('autosave-status').filter({ hasText: /^Saved$/ }).waitFor({ timeout: 15_000 });
    await screenshot(doctor, 'records-notes-draft-saved');
    const saved = (await (await fetch(`${base}/api/v1/consultations/${appointmentId}/notes`, { headers: await bearer(doctor) })).json()) as { is_draft: boolean; treatment_plan: string | null };
    assert.deepEqual([saved.is_draft, saved.treatment_plan], [true, plan], 'saved as a draft, which never reaches the patient');
    // Saved: the tab reloads without the browser's question, and the notes open with the draft.
    await doctor.reload();
    await recent.getByRole('button', { name: /Add Notes for/ }).first().click();
    await doctor.getByRole('dialog', { name: 'Consultation Notes' }).getByText(plan).waitFor();
    await doctor.getByRole('dialog', { name: 'Consultation Notes' }).getByRole('button', { name: 'Close' }).click();

    await patient.goto(`${base}/home`);
    await patient.getByRole('button', { name: 'View Prescriptions' }).click();
    const list = patient.getByRole('dialog', { name: 'Prescriptions' });
    await list.getByText(/PARACETAMOL|Paracetamol/i).first().waitFor();
    await screenshot(patient, 'records-prescriptions');
    // .first(): once, on a heavily loaded machine, the list held two prescriptions of the day (see the session note: a
    // second Issue under load is being looked into); this test is about opening the PDF.
    const [tab] = await Promise.all([patient.waitForEvent('popup'), list.getByRole('button', { name: /^Open the prescription of .* as PDF$/ }).first().click()]);
    await tab.waitForURL(/^blob:/, { timeout: 15_000 });
    await tab.waitForTimeout(1500); // the PDF viewer draws
    await screenshot(tab, 'records-prescription-pdf');
    await tab.close();
    const [pdf] = await Promise.all([patient.waitForEvent('download'), list.getByRole('button', { name: /^Download the prescription of .* as PDF$/ }).click()]);
    const bytes = await readFile((await pdf.path())!);
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-', 'the prescription downloads as a PDF');

    // The public check behind the PDF's QR code.
    const { prescriptions } = (await (await fetch(`${base}/api/v1/records/me`, { headers: await bearer(patient) })).json()) as { prescriptions: Array<{ id: string }> };
    const view = (await (await fetch(`${base}/api/v1/prescriptions/${prescriptions[0]!.id}`, { headers: await bearer(patient) })).json()) as { verification_code: string };
    const pharmacist = await (await browser.newContext({ ...context, viewport: VIEWPORTS.phone })).newPage();
    await pharmacist.goto(`${base}/verify/${view.verification_code}`);
    await pharmacist.getByText('Genuine prescription').waitFor();
    const patientName = JSON.parse((await patient.evaluate("sessionStorage.getItem('user_info')")) as string).name as string;
    assert.equal(await pharmacist.getByText(patientName).count(), 0, 'nothing of the patient');
    await screenshot(pharmacist, 'records-verify');
    assert.deepEqual(await accessibilityProblems(pharmacist, 'verify', 'main'), []);
    await pharmacist.setViewportSize(VIEWPORTS.desktop);
    await screenshot(pharmacist, 'records-verify');
  });
});
