import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link } from 'react-router';
import { renderAt } from '../test/render';
import { sessionStore } from './session';
import { UNSAVED_CHANGES_QUESTION, useAskToLeave, useUnsavedChanges } from './unsavedChanges';

/** A screen with one field: unsaved once typed in, saved by its Save button; a link to another page; a Clear that discards. */
function Form() {
  const [text, setText] = useState('');
  const [saved, setSaved] = useState('');
  const { confirmDiscard } = useUnsavedChanges(text !== saved);
  const askToLeave = useAskToLeave();
  const [left, setLeft] = useState('');
  return (
    <div>
      <label>
        Notes
        <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button onClick={() => setSaved(text)}>Save</button>
      <button onClick={() => void confirmDiscard().then((discard) => discard && setText(saved))}>Clear</button>
      <button onClick={() => void askToLeave().then((go) => setLeft(go ? 'may leave' : 'stays'))}>Logout</button>
      <p>{left}</p>
      <Link to="/elsewhere">Another page</Link>
    </div>
  );
}

const beforeUnloadCancelled = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('useUnsavedChanges: unsaved input is asked about before it is thrown away', () => {
  beforeEach(() => sessionStore.set({ token: 't', refreshToken: null, user: { id: 'u1', user_id: 'u1', name: 'Dr Asha', email: null, account_type: 'doctor' }, authProvider: 'google' }));
  afterEach(() => {
    cleanup();
    sessionStore.clear();
  });

  it('a link to another page asks; Keep editing stays with the text, Discard goes', async () => {
    renderAt('/form', <Form />);
    await userEvent.type(screen.getByLabelText('Notes'), 'Fever for three days');
    await userEvent.click(screen.getByRole('link', { name: 'Another page' }));
    await screen.findByText(UNSAVED_CHANGES_QUESTION.title);
    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull());
    expect((screen.getByLabelText('Notes') as HTMLInputElement).value).toBe('Fever for three days');
    await userEvent.click(await screen.findByRole('link', { name: 'Another page' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await screen.findByText('elsewhere');
  });

  it('nothing unsaved (never typed, or saved): the link goes at once and the tab closes without a question', async () => {
    renderAt('/form', <Form />);
    expect(beforeUnloadCancelled()).toBe(false);
    await userEvent.type(screen.getByLabelText('Notes'), 'Fever');
    expect(beforeUnloadCancelled()).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(beforeUnloadCancelled()).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Another page' }));
    await screen.findByText('elsewhere');
    expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull();
  });

  it("the screen's own discard asks only when something is unsaved, and Keep editing keeps it", async () => {
    renderAt('/form', <Form />);
    const field = screen.getByLabelText('Notes') as HTMLInputElement;
    await userEvent.type(field, 'Cough');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByText(UNSAVED_CHANGES_QUESTION.title)).toBeNull());
    expect(field.value).toBe('Cough');
    await userEvent.click(await screen.findByRole('button', { name: 'Clear' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(field.value).toBe(''));
  });

  it('a Logout asks while anything is unsaved, and not once nothing is', async () => {
    renderAt('/form', <Form />);
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await screen.findByText('may leave');
    await userEvent.type(screen.getByLabelText('Notes'), 'Rash');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await screen.findByText('stays');
  });
});
