import { useReducer, useRef } from 'react';
import type { CallSummary } from './model';

/**
 * Where the page is in one consultation: the lobby, the call, the few moments of leaving it, and its summary (null
 * while the server's record of the call is read).
 */
export type CallPhase = { phase: 'lobby' } | { phase: 'call' } | { phase: 'leaving' } | { phase: 'summary'; summary: CallSummary | null };

/** What moves the page from one phase to the next. */
export type PhaseEvent =
  /** The consultation had ended before the page opened: straight to its summary. */
  | { type: 'openedEnded'; summary: CallSummary }
  /** Joined and connected: the call shows. */
  | { type: 'entered' }
  /** This person joined again from another window or device: this one steps back to the lobby. */
  | { type: 'replaced' }
  /** The consultation ended (here, by the other side, or at its limit): the call winds down. */
  | { type: 'ended' }
  /** The summary's moment has come (its record may still be on its way). */
  | { type: 'summaryDue' }
  /** The server's record of the call, for the summary. */
  | { type: 'summaryRead'; summary: CallSummary };

/** The transitions; an event the current phase does not expect leaves it as it is. */
export function callPhase(state: CallPhase, event: PhaseEvent): CallPhase {
  switch (event.type) {
    case 'openedEnded':
      return state.phase === 'lobby' ? { phase: 'summary', summary: event.summary } : state;
    case 'entered':
      return state.phase === 'lobby' ? { phase: 'call' } : state;
    case 'replaced':
      return state.phase === 'call' ? { phase: 'lobby' } : state;
    case 'ended':
      return state.phase === 'lobby' || state.phase === 'call' ? { phase: 'leaving' } : state;
    case 'summaryDue':
      return state.phase === 'leaving' ? { phase: 'summary', summary: null } : state;
    case 'summaryRead':
      return state.phase === 'summary' ? { phase: 'summary', summary: event.summary } : state;
  }
}

const LOBBY: CallPhase = { phase: 'lobby' };

/** The page's phase, with a ref to it for handlers that outlive a render (socket listeners, timers, awaited joins). */
export function useCallPhase() {
  const [state, dispatch] = useReducer(callPhase, LOBBY);
  const phaseRef = useRef(state.phase);
  phaseRef.current = state.phase;
  return { state, phase: state.phase, phaseRef, dispatch };
}
