import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderAt } from '../test/render';
import { sessionStore, type SessionUser } from '../lib/session';
import { Layout } from './Layout';
import { NAV_PLACES } from './navigation';
import en from '../i18n/catalogues/en/shell.json';
import { I18nProvider } from '../i18n/I18nProvider';

// The English names the navigation shows (the screens outside an I18nProvider are in English).
const CONSOLE = en[NAV_PLACES.console.labelId];
const ALL_DOCTORS = en[NAV_PLACES.allDoctors.labelId];

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
    document.documentElement.lang = 'en'; // the Hindi case's provider set it
  });

  it("a clinic's admin finds the console (/admin) in the header and the user menu", async () => {
    signedInAs('patient', true);
    renderAt('/home', <Layout><p>page</p></Layout>);
    const link = await within(nav()).findByRole('link', { name: CONSOLE });
    expect(link.getAttribute('href')).toBe('/admin');
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    expect(await screen.findByRole('menuitem', { name: CONSOLE })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Manage Institution' })).toBeTruthy();
  });

  it('a platform operator finds the console too', async () => {
    signedInAs('admin', false);
    renderAt('/institutions', <Layout><p>page</p></Layout>);
    expect((await within(nav()).findByRole('link', { name: CONSOLE })).getAttribute('href')).toBe('/admin');
  });

  it('a doctor finds All Doctors (the doctor home’s list), and no console', async () => {
    signedInAs('doctor', false);
    renderAt('/doctor-home', <Layout><p>page</p></Layout>);
    const link = within(nav()).getByRole('link', { name: ALL_DOCTORS });
    expect(link.getAttribute('href')).toBe('/doctor-home#all-doctors');
    // The admin status has been asked and answered no: still no console.
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    await screen.findByRole('menuitem', { name: ALL_DOCTORS });
    expect(screen.queryByRole('menuitem', { name: CONSOLE })).toBeNull();
    expect(screen.queryByRole('link', { name: CONSOLE, hidden: true })).toBeNull();
  });

  it('a patient sees neither', async () => {
    signedInAs('patient', false);
    renderAt('/home', <Layout><p>page</p></Layout>);
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    await screen.findByRole('menuitem', { name: 'View Profile' });
    expect(screen.queryByRole('menuitem', { name: CONSOLE })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: ALL_DOCTORS })).toBeNull();
  });

  it('speaks the chosen language: the links, the role and the menu in Hindi', async () => {
    signedInAs('patient', true);
    renderAt('/home', <I18nProvider language="hi"><Layout><p>page</p></Layout></I18nProvider>);
    expect((await within(nav()).findByRole('link', { name: 'मेरे अपॉइंटमेंट' })).getAttribute('href')).toBe('/my-appointments');
    expect((await within(nav()).findByRole('link', { name: 'एडमिन कंसोल' })).getAttribute('href')).toBe('/admin');
    expect(screen.getByTestId('role-label').textContent).toBe('संस्था एडमिन');
    await userEvent.click(screen.getByRole('button', { name: /Asha Rao/ }));
    expect(await screen.findByRole('menuitem', { name: 'साइन आउट करें' })).toBeTruthy();
  });
});
