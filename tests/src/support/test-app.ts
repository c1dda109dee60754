import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, type AccountType, type DoctorProfile } from '@telemed/contracts';
import { loadConfig, type Logger } from '@telemed/platform';
import { createApp, type App } from '@telemed/all-in-one';
import { findUserIdByEmail, giveConsent, registerUser, setAvailability, systemContext } from '@telemed/command';

export interface TestUser {
  user_id: string;
  token: string;
  auth: { Authorization: string };
}

export interface TestApp {
  app: App;
  http: ReturnType<typeof supertest>;
  dataDir: string;
  /** A patient has agreed to the current privacy notice (so they can book) unless `consent: false`. */
  createUser(accountType: AccountType, fields?: { name?: string; phone_number?: string; doctor?: Partial<DoctorProfile>; consent?: boolean }): Promise<TestUser>;
  /** The account registered under this e-mail (a seeded or invited one), signed in as that kind of account. */
  signedIn(email: string, accountType: AccountType): Promise<TestUser>;
  /**
   * A new token for the account, as a sign-in after its reactivation gives: tokens issued before a deactivation stay
   * refused, and a token's iat counts whole seconds, so this one is issued in the next second.
   */
  signInAgain(user: TestUser, accountType: AccountType): Promise<TestUser>;
  /** Publishes availability for a doctor and returns the ids of those slots that are open, in start order. */
  openSlots(doctor: TestUser, slots: Array<{ date: string; time: string }>): Promise<number[]>;
  /** Waits until the read models have applied everything written so far. */
  /**
   * Waits until the log is quiet: the process managers have acted on every event and the read models hold everything.
   * `processManagers: false` waits for the read models alone: for a test that holds a process manager mid-work (a
   * hooked read or append) and settles from inside that hold.
   */
  settle(options?: { processManagers?: boolean }): Promise<void>;
  close(options?: { keepData?: boolean }): Promise<void>;
}

export function tmpDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'telemed-test-'));
}

/** A local date `days` from today in India, as YYYY-MM-DD. */
export function indiaDate(days: number, now = new Date()): string {
  return DateTime.fromJSDate(now, { zone: DEFAULT_TIMEZONE }).plus({ days }).toISODate()!;
}

export function slotInput(date: string, time: string) {
  const start = DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE });
  return { slot_date: date, start_time: start.toFormat('HH:mm:ss'), end_time: start.plus({ minutes: 30 }).toFormat('HH:mm:ss') };
}

let counter = 0;

/** The composed product on embedded adapters in a temporary data directory, the way tests should see it. */
/** What test patients' wallets open with: no test is about running out unless it sets STARTING_CREDITS. */
export const TEST_STARTING_CREDITS = 1_000_000;

export const TEST_TOKEN_TTL_SECONDS = 10 * 365 * 24 * 3600;

export async function startTestApp(options: { dataDir?: string; env?: Record<string, string>; clock?: () => Date; frontendDir?: string; logger?: Logger } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tmpDataDir();
  // Read models in memory unless a test asks for another store (READ_STORE=sqlite).
  // Patients open their wallets with credits enough for any test's bookings (fees are held on every request, issue 36);
  // the tests of fees and wallets set the product's grant themselves (STARTING_CREDITS).
  const config = loadConfig({ DATA_DIR: dataDir, DEMO_DATA: 'off', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', SQLITE_SYNCHRONOUS: 'NORMAL', READ_STORE: 'memory', STARTING_CREDITS: String(TEST_STARTING_CREDITS), ...options.env });
  // Tests move the app's clock by days or years and go on with the users they signed in before: their tokens last
  // ten years of that clock (tokens are issued and checked at its time), unless a test sets the product's TTL itself.
  const accessTokenTtlSeconds = options.env?.ACCESS_TOKEN_TTL_SECONDS ? undefined : TEST_TOKEN_TTL_SECONDS;
  const app = await createApp({ config, clock: options.clock, accessTokenTtlSeconds, frontendDir: options.frontendDir, logger: options.logger });
  await app.start();
  const clock = options.clock ?? (() => new Date());
  // A read after settle() sees every write made before it, and every write the process managers make in answer to
  // them (a released slot after a rejection): the log is quiet, the managers have acted on all of it and the read
  // models hold it. On a loaded machine a batch can take seconds, and a read that went ahead on a timeout would fail
  // later, far from the cause.
  const settle = async (options: { processManagers?: boolean } = {}) => {
    const managers = options.processManagers ?? true;
    for (;;) {
      const head = await app.eventStore.headPosition();
      if (managers && !(await app.waitForProcessManagers(head, 60_000))) throw new Error(`the process managers did not reach position ${head} within 60 s`);
      if ((await app.eventStore.headPosition()) !== head) continue;
      if (!(await app.runner.waitForPosition(head, 60_000))) throw new Error(`the read models did not reach position ${head} within 60 s`);
      if ((await app.eventStore.headPosition()) === head) return;
    }
  };
  return {
    app,
    http: supertest(app.app),
    dataDir,
    async createUser(accountType, fields = {}) {
      counter += 1;
      const { user_id } = await registerUser(
        app.eventStore,
        {
          email: `${accountType}${counter}@test.local`,
          name: fields.name ?? `${accountType} ${counter}`,
          account_type: accountType,
          phone_number: fields.phone_number ?? `+91 90000 ${String(counter).padStart(5, '0')}`,
          // Test doctors consult free unless a test gives a fee: only the tests about fees see wallets in their events.
          doctor: accountType === 'doctor' ? { consultation_fee: 0, ...fields.doctor } : fields.doctor,
        },
        systemContext(clock(), null),
      );
      if (accountType === 'patient' && fields.consent !== false) {
        await giveConsent(app.eventStore, user_id, {}, { ...systemContext(clock(), null), actor: { user_id, role: 'patient' } });
      }
      const token = await app.tokens.issue({ user_id, account_type: accountType });
      await settle();
      return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
    },
    async signedIn(email, accountType) {
      const user_id = await findUserIdByEmail(app.eventStore, email);
      if (!user_id) throw new Error(`no account for ${email}`);
      const token = await app.tokens.issue({ user_id, account_type: accountType });
      return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
    },
    async signInAgain(user, accountType) {
      // Issued a second ahead: a token's iat is in whole seconds, and one issued in the second of a deactivation counts
      // as from before it (no test waits a second for the clock).
      const token = await app.tokens.issue({ user_id: user.user_id, account_type: accountType }, new Date(clock().getTime() + 1000));
      return { user_id: user.user_id, token, auth: { Authorization: `Bearer ${token}` } };
    },
    async openSlots(doctor, slots) {
      await setAvailability(
        app.eventStore,
        doctor.user_id,
        { slots: slots.map((s) => slotInput(s.date, s.time)), timezone: DEFAULT_TIMEZONE },
        systemContext(clock(), null),
      );
      await settle();
      const res = await supertest(app.app).get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth);
      const wanted = new Set(slots.map((s) => DateTime.fromISO(`${s.date}T${s.time}`, { zone: DEFAULT_TIMEZONE }).toUTC().toISO({ suppressMilliseconds: true })));
      return (res.body as { slots: Array<{ slot_id: number; start_at: string }> }).slots.filter((s) => wanted.has(s.start_at)).map((s) => s.slot_id);
    },
    settle,
    async close(closeOptions = {}) {
      await app.stop();
      if (!closeOptions.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
