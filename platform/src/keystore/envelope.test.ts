import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ERASED_VALUE, eventDataSchemas, type EventData } from '@telemed/contracts';
import { EnvelopeError, decryptField, encryptField, isCiphertext, parseCiphertext } from './envelope';
import { decryptEventData, encryptEventData, keyLookups, type KeyById, type KeyForSubject } from './event-envelope';
import { MemoryKeyStore } from './memory';
import { generateMasterKeyText, parseMasterKey } from './master-key';

const key = randomBytes(32);

describe('field envelope (AES-256-GCM)', () => {
  it('round-trips, with a fresh IV each time and nothing of the value in the ciphertext', () => {
    const value = 'Priya Sharma, चक्कर आना since Monday';
    const a = encryptField(value, key, 'dk-1', 'AppointmentRequested.notes');
    const b = encryptField(value, key, 'dk-1', 'AppointmentRequested.notes');
    assert.notEqual(a, b);
    assert.ok(!a.includes('Priya') && !a.includes(Buffer.from(value).toString('base64url').slice(0, 12)));
    assert.equal(decryptField(a, key, 'AppointmentRequested.notes'), value);
    assert.equal(decryptField(encryptField('', key, 'dk-1'), key), '', 'an empty value too');
  });

  it('is one compact string {k, iv, ct, tag} naming the key id, never the key', () => {
    const text = encryptField('x', key, 'dk-abc');
    const parts = parseCiphertext(text)!;
    assert.equal(parts.k, 'dk-abc');
    assert.equal(Buffer.from(parts.iv, 'base64url').length, 12);
    assert.equal(Buffer.from(parts.tag, 'base64url').length, 16);
    assert.ok(text.startsWith('enc1.dk-abc.'));
    assert.ok(!text.includes(key.toString('base64url')) && !text.includes(key.toString('hex')));
    assert.ok(isCiphertext(text));
    assert.ok(!isCiphertext('Fever since Monday') && !isCiphertext(null) && !isCiphertext('enc1.x'));
  });

  it('refuses another key, another field, an altered ciphertext or a copied key id', () => {
    const text = encryptField('secret', key, 'dk-1', 'UserRegistered.name');
    assert.throws(() => decryptField(text, randomBytes(32), 'UserRegistered.name'), EnvelopeError);
    assert.throws(() => decryptField(text, key, 'UserRegistered.email'), EnvelopeError);
    const parts = parseCiphertext(text)!;
    const flipped = Buffer.from(parts.ct, 'base64url');
    flipped[0]! ^= 1;
    assert.throws(() => decryptField(text.replace(parts.ct, flipped.toString('base64url')), key, 'UserRegistered.name'), EnvelopeError);
    assert.throws(() => decryptField(text.replace('.dk-1.', '.dk-2.'), key, 'UserRegistered.name'), EnvelopeError);
    assert.throws(() => decryptField('plain text', key), EnvelopeError);
    assert.throws(() => encryptField('x', randomBytes(16), 'dk-1'), EnvelopeError);
    assert.throws(() => encryptField('x', key, 'has.dot'), EnvelopeError);
  });
});

describe("an event's personal fields", () => {
  const keys = new Map<string, { key_id: string; key: Buffer }>();
  const keyFor: KeyForSubject = async (subject) => {
    if (!keys.has(subject)) keys.set(subject, { key_id: `dk-${subject}`, key: randomBytes(32) });
    return keys.get(subject)!;
  };
  const keyById: KeyById = async (id) => [...keys.values()].find((k) => k.key_id === id)?.key ?? null;

  const registered: EventData<'UserRegistered'> = { user_id: 'u1', email: 'priya@example.in', name: 'Priya Sharma', account_type: 'patient', phone_number: '+91 98765 43210' };

  it('encrypts name, e-mail and phone of UserRegistered under the user, keeps ids and kinds, and still fits the schema', async () => {
    const encrypted = await encryptEventData('UserRegistered', registered, keyFor);
    assert.equal(encrypted.user_id, 'u1');
    assert.equal(encrypted.account_type, 'patient');
    for (const field of ['name', 'email', 'phone_number'] as const) {
      assert.ok(isCiphertext(encrypted[field]), field);
      assert.equal(parseCiphertext(encrypted[field]!)!.k, 'dk-u1');
    }
    assert.ok(!JSON.stringify(encrypted).includes('Priya') && !JSON.stringify(encrypted).includes('98765'));
    eventDataSchemas.UserRegistered.parse(encrypted);
    assert.deepEqual(await decryptEventData('UserRegistered', encrypted, keyById), { data: registered, erased: [] });
    assert.deepEqual(registered.name, 'Priya Sharma', 'the input is not changed');
  });

  it('leaves null fields null and events without personal fields as they are', async () => {
    const encrypted = await encryptEventData('UserRegistered', { ...registered, email: null, phone_number: null }, keyFor);
    assert.equal(encrypted.email, null);
    assert.equal(encrypted.phone_number, null);
    const approved = { appointment_id: 'a1', doctor_id: 'd1' };
    assert.equal(await encryptEventData('AppointmentApproved', approved, keyFor), approved);
  });

  it("encrypts a request's notes under the patient, and a rejection reason under the stream's patient", async () => {
    const requested: EventData<'AppointmentRequested'> = { appointment_id: 'a1', slot_id: 1, doctor_id: 'd1', patient_id: 'p1', start: '2030-01-01T04:30:00Z', end: '2030-01-01T05:00:00Z', notes: 'Chest pain' };
    const encrypted = await encryptEventData('AppointmentRequested', requested, keyFor);
    assert.equal(parseCiphertext(encrypted.notes)!.k, 'dk-p1');
    const rejected = { appointment_id: 'a1', doctor_id: 'd1', reason: 'Please visit a hospital' };
    await assert.rejects(encryptEventData('AppointmentRejected', rejected, keyFor), /the stream's patient/);
    const withParty = await encryptEventData('AppointmentRejected', rejected, keyFor, { patient: 'p1' });
    assert.equal(parseCiphertext(withParty.reason!)!.k, 'dk-p1');
    assert.equal((await decryptEventData('AppointmentRejected', withParty, keyById)).data.reason, 'Please visit a hospital');
  });

  it('reads an erased person (destroyed key) as the erased marker, never an exception', async () => {
    const store = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
    const lookups = keyLookups(store);
    const encrypted = await encryptEventData('UserRegistered', registered, lookups.keyFor);
    assert.equal((await decryptEventData('UserRegistered', encrypted, lookups.keyById)).data.name, 'Priya Sharma');
    await store.destroy('u1');
    const after = await decryptEventData('UserRegistered', encrypted, lookups.keyById);
    assert.deepEqual(after.data, { ...registered, name: ERASED_VALUE, email: ERASED_VALUE, phone_number: ERASED_VALUE });
    assert.deepEqual(after.erased, ['name', 'email', 'phone_number']);
  });

  it('passes plain values (events written before encryption) through', async () => {
    assert.deepEqual(await decryptEventData('UserRegistered', registered, keyById), { data: registered, erased: [] });
  });
});
