import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DebugConsole } from './DebugConsole';
import { appendLog, type DebugEntry } from './model';

describe('the debug console', () => {
  afterEach(cleanup);
  it('lists timestamp, level, message and data; Copy, Clear and Close', async () => {
    let entries: DebugEntry[] = [];
    for (let i = 1; i <= 55; i += 1) entries = appendLog(entries, i === 55 ? 'error' : 'info', `step ${i}`, i === 55 ? { state: 'failed' } : undefined, new Date(`2026-11-23T10:00:${String(i % 60).padStart(2, '0')}Z`));
    const onClear = vi.fn();
    const onClose = vi.fn();
    const onCopied = vi.fn();
    const user = userEvent.setup(); // before the clipboard stub: it installs one of its own
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<DebugConsole open entries={entries} onClear={onClear} onClose={onClose} onCopied={onCopied} />);
    const items = screen.getByRole('list', { name: 'Log entries' }).querySelectorAll('li');
    expect(items).toHaveLength(50);
    expect(items[0]!.textContent).toContain('step 6');
    expect(items[49]!.textContent).toContain('10:00:55.000');
    expect(items[49]!.textContent).toContain('ERROR');
    expect(items[49]!.textContent).toContain('{"state":"failed"}');
    expect(screen.getByText(/50 of at most 50 entries/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('[2026-11-23T10:00:55.000Z] ERROR step 55 {"state":"failed"}'));
    expect(onCopied).toHaveBeenCalledWith(true);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onClear).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows a message as text, never as markup', () => {
    const entries = appendLog([], 'warn', '<img src=x onerror=alert(1)>');
    render(<DebugConsole open entries={entries} onClear={() => {}} onClose={() => {}} onCopied={() => {}} />);
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
  });
});
