import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderAt } from '../test/render';
import { sessionStore, type SessionUser } from '../lib/session';
import { Layout } from './Layout';
import { NAV_PLACES } from './navigation';

function signedInAs(account_type: SessionUser['account_type'], institutionAdmin: boolean) {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'u', user_id: 'u', name: 'Asha Rao', email: null, account_type } });
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.includes('/institutions/check-admin-status')) return json(200, { is_institution_admin: institutionAdmin, institution_id: institutionAdmin ? 'i1' : null });
    return json(200, []);
  });
}

const nav = () => screen.getByRole('navigation');

describe('the signed-in navigation leads each role to its places', () => {
  afterEach(() => {
    cleanup();
    sessionStore.clear();
    vi.unstubAllGlobals();
  });

  it("a clinic's admin finds the console (/admin) in the header and the user menu", async () => {
    signedInAs('patient', true);
    renderAt('/home', <Layout><p>page</p></Layout>);
    const link = await within(nav()).findByRole('link', { name: NAV_PLACES.console.label });
    expect(link.getAttribute('href')).toBe('/admin');
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    expect(await screen.findByRole('menuitem', { name: NAV_PLACES.console.label })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Manage Institution' })).toBeTruthy();
  });

  it('a platform operator finds the console too', async () => {
    signedInAs('admin', false);
    renderAt('/institutions', <Layout><p>page</p></Layout>);
    expect((await within(nav()).findByRole('link', { name: NAV_PLACES.console.label })).getAttribute('href')).toBe('/admin');
  });

  it('a doctor finds All Doctors (the doctor home’s list), and no console', async () => {
    signedInAs('doctor', false);
    renderAt('/doctor-home', <Layout><p>page</p></Layout>);
    const link = within(nav()).getByRole('link', { name: NAV_PLACES.allDoctors.label });
    expect(link.getAttribute('href')).toBe('/doctor-home#all-doctors');
    // The admin status has been asked and answered no: still no console.
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    await screen.findByRole('menuitem', { name: NAV_PLACES.allDoctors.label });
    expect(screen.queryByRole('menuitem', { name: NAV_PLACES.console.label })).toBeNull();
    expect(screen.queryByRole('link', { name: NAV_PLACES.console.label, hidden: true })).toBeNull();
  });

  it('a patient sees neither', async () => {
    signedInAs('patient', false);
    renderAt('/home', <Layout><p>page</p></Layout>);
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    await screen.findByRole('menuitem', { name: 'View Profile' });
    expect(screen.queryByRole('menuitem', { name: NAV_PLACES.console.label })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: NAV_PLACES.allDoctors.label })).toBeNull();
  });
});
