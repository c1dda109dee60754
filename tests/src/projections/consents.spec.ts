import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { erased, registered } from '../support/spec-events';

const consents = projectionSpec('consents');
const GIVEN_AT = '2026-03-01T08:00:00.000Z';
const WITHDRAWN_AT = '2026-03-04T08:00:00.000Z';
const AGAIN_AT = '2026-03-06T08:00:00.000Z';
const HASH = 'e'.repeat(64);

const gave = (user_id: string, notice_version = '2026-01', at = GIVEN_AT) => event('ConsentGiven', { user_id, notice_version, language: 'hi', text_hash: HASH }, { at });
const agreement = (e: ReturnType<typeof gave>, withdrawn_at: string | null = null) => ({
  _id: e.event_id,
  user_id: e.data.user_id,
  notice_version: e.data.notice_version,
  language: 'hi',
  text_hash: HASH,
  given_at: e.metadata.occurred_at,
  withdrawn_at,
});

describe('consents projection (each agreement to a privacy notice)', () => {
  it('an agreement records the version, the language and the hash of the text read', () => {
    const e = gave(freshId('patient'));
    return consents.given().when(e).then({ consents: [agreement(e)] });
  });

  it('a withdrawal ends the agreement to that version, and a later agreement is a record of its own', () => {
    const user = freshId('patient');
    const first = gave(user);
    const second = gave(user, '2026-01', AGAIN_AT);
    return consents
      .given(first)
      .when(event('ConsentWithdrawn', { user_id: user, notice_version: '2026-01', text_hash: HASH }, { at: WITHDRAWN_AT }), second)
      .then({ consents: [agreement(first, WITHDRAWN_AT), agreement(second)] });
  });

  it("a withdrawal ends only that version's agreement, and only that person's", () => {
    const user = freshId('patient');
    const older = gave(user, '2025-07');
    const current = gave(user, '2026-01');
    const someoneElse = gave(freshId('patient'), '2026-01');
    return consents
      .given(older, current, someoneElse)
      .when(event('ConsentWithdrawn', { user_id: user, notice_version: '2026-01', text_hash: HASH }, { at: WITHDRAWN_AT }))
      .then({ consents: [agreement(older), agreement(current, WITHDRAWN_AT), agreement(someoneElse)] });
  });

  it('an agreement delivered again does not undo the withdrawal recorded after it', () => {
    const user = freshId('patient');
    const e = gave(user);
    return consents
      .given(e)
      .when(event('ConsentWithdrawn', { user_id: user, notice_version: '2026-01', text_hash: HASH }, { at: WITHDRAWN_AT }))
      .deliveredAgain('given')
      .then({ consents: [agreement(e, WITHDRAWN_AT)] });
  });

  it('an erasure keeps the record of consent (what was agreed, when: nothing personal), and account events leave it too', () => {
    const user = freshId('patient');
    return consents.given(gave(user)).when(registered({ user_id: user }), erased(user)).thenUnchanged();
  });
});
