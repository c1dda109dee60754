import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRef, useState } from 'react';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useNavigate } from 'react-router';
import { renderAt } from '../../test/render';
import { useLeaveCallGuard } from './LeaveCallGuard';
import en from '../../i18n/catalogues/en/video.json';
import { UNSAVED_CHANGES_QUESTION, useUnsavedChanges } from '../../lib/unsavedChanges';
import { sessionStore } from '../../lib/session';

afterEach(cleanup);

/** The app's chrome (a header link, a bottom-bar button that navigates) around a call page with a header of its own. */
function CallScreen({ inCall }: { inCall: boolean }) {
  const navigate = useNavigate();
  const pageRef = useRef<HTMLDivElement>(null);
  useLeaveCallGuard(inCall, pageRef);
  return (
    <>
      <header>
        <Link to="/my-appointments">My Appointments</Link>
      </header>
      <div ref={pageRef}>
        <header>
          <button type="button" onClick={() => navigate('/call-settings')}>
            Call header button
          </button>
        </header>
        <p>the call</p>
      </div>
      <nav>
        <button type="button" onClick={() => navigate('/home')}>
          Home
        </button>
      </nav>
    </>
  );
}

describe('leaving a call through the app’s navigation', () => {
  it('asks first: Stay in call keeps the call, Leave call goes where the link or button leads', async () => {
    renderAt('/video-call', <CallScreen inCall />);
    await userEvent.click(screen.getByRole('link', { name: 'My Appointments' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the consultation?' });
    expect(dialog.textContent).toContain('Going to another page leaves the call.');
    await userEvent.click(screen.getByRole('button', { name: 'Stay in call' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('the call')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Home' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Leave call' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
  });

  it('the link, once confirmed, is followed too', async () => {
    renderAt('/video-call', <CallScreen inCall />);
    await userEvent.click(screen.getByRole('link', { name: 'My Appointments' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Leave call' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
  });

  it('does not ask about the call page’s own controls, nor outside a call', async () => {
    renderAt('/video-call', <CallScreen inCall />);
    await userEvent.click(screen.getByRole('button', { name: 'Call header button' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    renderAt('/video-call', <CallScreen inCall={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Home' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

/** The call page with something typed and not saved (a prescription line being written, say). */
function CallWithUnsavedInput({ inCall }: { inCall: boolean }) {
  const [text, setText] = useState('');
  useUnsavedChanges(text !== '');
  return (
    <>
      <CallScreen inCall={inCall} />
      <label>
        Dosage
        <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
    </>
  );
}

describe('unsaved input on the call page', () => {
  afterEach(() => sessionStore.clear());

  it('is asked about once, in the leave-call question: Leave call goes without the unsaved-changes question as well', async () => {
    sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } });
    renderAt('/video-call', <CallWithUnsavedInput inCall />);
    await userEvent.type(screen.getByLabelText('Dosage'), '1 tablet');
    await userEvent.click(screen.getByRole('link', { name: 'My Appointments' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the consultation?' });
    expect(dialog.textContent).toContain(en['video.leaveMessageUnsaved']);
    await userEvent.click(screen.getByRole('button', { name: 'Leave call' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull();
  });

  it('outside a call, the unsaved-changes question is the one asked', async () => {
    sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. A', email: null, account_type: 'doctor' } });
    renderAt('/video-call', <CallWithUnsavedInput inCall={false} />);
    await userEvent.type(screen.getByLabelText('Dosage'), '1 tablet');
    await userEvent.click(screen.getByRole('link', { name: 'My Appointments' }));
    expect(await screen.findByText(UNSAVED_CHANGES_QUESTION.title)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Leave the consultation?' })).toBeNull();
  });
});

/** A call that its own End Call ends (the page stays, showing the summary). */
function EndableCall() {
  const [inCall, setInCall] = useState(true);
  return (
    <>
      <CallScreen inCall={inCall} />
      <button type="button" onClick={() => setInCall(false)}>
        End Call
      </button>
    </>
  );
}

describe('the browser’s Back button during a call', () => {
  it('asks first: Stay in call keeps the call (and the next Back asks again), Leave call goes back where the person was', async () => {
    window.history.pushState(null, '', '/my-appointments');
    window.history.pushState(null, '', '/video-call?appointment_id=a1');
    renderAt('/video-call', <CallScreen inCall />);
    window.history.back();
    await userEvent.click(await screen.findByRole('button', { name: 'Stay in call' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.pathname + window.location.search).toBe('/video-call?appointment_id=a1');
    expect(screen.getByText('the call')).toBeTruthy();

    window.history.back();
    await userEvent.click(await screen.findByRole('button', { name: 'Leave call' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/my-appointments'));
  });

  it('does not ask outside a call, and a call that ends takes its extra history entry away', async () => {
    window.history.pushState(null, '', '/home');
    window.history.pushState(null, '', '/video-call?appointment_id=a2');
    const length = window.history.length;
    renderAt('/video-call', <EndableCall />);
    expect(window.history.length).toBe(length + 1);
    await userEvent.click(screen.getByRole('button', { name: 'End Call' }));
    await vi.waitFor(() => expect(window.history.state).toBeNull());
    window.history.back();
    await vi.waitFor(() => expect(window.location.pathname).toBe('/home'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
