import { describe, expect, it } from 'vitest';
import { buildSummary } from './model';
import { callPhase, type CallPhase, type PhaseEvent } from './useCallPhase';

const summary = buildSummary({ record: null, me: { id: 'd1', name: 'Dr. Ananya Sharma', role: 'DOCTOR' }, autoEnded: false, timeZone: 'Asia/Kolkata', now: new Date('2026-11-23T10:00:00Z') });
const run = (events: PhaseEvent[]) => events.reduce<CallPhase>(callPhase, { phase: 'lobby' });

describe('the video call page’s phases', () => {
  it('goes lobby → call → leaving → summary, the summary once its record is read', () => {
    expect(run([{ type: 'entered' }])).toEqual({ phase: 'call' });
    expect(run([{ type: 'entered' }, { type: 'ended' }])).toEqual({ phase: 'leaving' });
    expect(run([{ type: 'entered' }, { type: 'ended' }, { type: 'summaryDue' }])).toEqual({ phase: 'summary', summary: null });
    expect(run([{ type: 'entered' }, { type: 'ended' }, { type: 'summaryDue' }, { type: 'summaryRead', summary }])).toEqual({ phase: 'summary', summary });
  });

  it('opens on the summary of a consultation that had ended, and leaves from the lobby when it ends there', () => {
    expect(run([{ type: 'openedEnded', summary }])).toEqual({ phase: 'summary', summary });
    expect(run([{ type: 'ended' }])).toEqual({ phase: 'leaving' });
  });

  it('steps back to the lobby from the call when this person joined elsewhere', () => {
    expect(run([{ type: 'entered' }, { type: 'replaced' }])).toEqual({ phase: 'lobby' });
  });

  it('ignores what the phase does not expect: a join answered while leaving, an end after it, a replacement in the lobby', () => {
    const leaving = run([{ type: 'entered' }, { type: 'ended' }]);
    expect(callPhase(leaving, { type: 'entered' })).toBe(leaving);
    expect(callPhase(leaving, { type: 'ended' })).toBe(leaving);
    expect(run([{ type: 'replaced' }])).toEqual({ phase: 'lobby' });
    expect(run([{ type: 'summaryRead', summary }])).toEqual({ phase: 'lobby' });
  });
});
