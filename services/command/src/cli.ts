import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DOCTOR_CITY_MAX_LENGTH, accountTypeSchema } from '@telemed/contracts';
import { LANGUAGE_CODES } from '@telemed/contracts/languages';
import { MIN_PASSWORD_LENGTH, TokenService, blobStoreFromConfig, generateMasterKeyText, hashPassword, keyStoreFromConfig, loadConfig, loadTokenSecret, openEventStore } from '@telemed/platform';
import { registerUser } from './users/service';
import { systemContext } from './decider';
import { handleUserCommand } from './users/load-user';
import { startSession } from './identity/sessions';
import { readPassword } from './read-password';
import { importBrandCatalogue } from './records/medicine-import';

/**
 * Operator CLI.
 *   user:create --email E --name N --account-type patient|doctor|admin [--phone P]  → {"user_id", "access_token"}
 *   admin:create --email E [--name N]   (password from stdin, or prompted on a terminal)  → {"user_id"}
 *   keys:status   → {"store", "wrapping": [{master_key_id, current, keys}]}
 *   keys:rotate   → re-wraps every data key under DATA_MASTER_KEY, reading old wraps with DATA_MASTER_KEY_PREVIOUS
 *   keys:generate-master   → a fresh master key to put in DATA_MASTER_KEY
 *   medicines:import FILE.csv   → {"import_id", "rows"}: a clinic's brand catalogue beside NLEM 2022 (bad rows: exit 1, nothing stored)
 */
const usage = `usage: npm run cli -- user:create --email E --name N --account-type patient|doctor|admin [--phone P]
       [--specialty S] [--qualification Q] [--fee RUPEES] [--registration-number R] [--council C] [--city CITY] [--languages en,hi]
   or: npm run cli -- admin:create --email E [--name N]   (the password is read from stdin)
   or: npm run cli -- keys:status | keys:rotate | keys:generate-master
   or: npm run cli -- medicines:import FILE.csv   (columns name,manufacturer,composition,strength,form)`;

const argsSchema = z.object({
  email: z.email(),
  name: z.string().trim().min(1).max(120),
  'account-type': z.preprocess((v) => (v === 'user' ? 'patient' : v), accountTypeSchema),
  phone: z.string().trim().min(6).max(20).optional(),
  specialty: z.string().trim().min(1).optional(),
  qualification: z.string().trim().min(1).optional(),
  fee: z.coerce.number().nonnegative().optional(),
  'registration-number': z.string().trim().min(1).optional(),
  council: z.string().trim().min(1).optional(),
  city: z.string().trim().min(1).max(DOCTOR_CITY_MAX_LENGTH).optional(),
  /** The languages a doctor consults in, comma-separated codes (en,hi,ta). */
  languages: z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((code) => code.trim()) : v), z.array(z.enum(LANGUAGE_CODES)).min(1)).optional(),
});

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: Object.fromEntries(
      ['email', 'name', 'account-type', 'phone', 'specialty', 'qualification', 'fee', 'registration-number', 'council', 'city', 'languages'].map((k) => [
        k,
        { type: 'string' as const },
      ]),
    ),
  });
  if (positionals[0] === 'admin:create') return createAdmin(values);
  if (positionals[0]?.startsWith('keys:')) return keys(positionals[0]);
  if (positionals[0] === 'medicines:import') return importMedicines(positionals.slice(1));
  if (positionals[0] !== 'user:create') {
    console.error(usage);
    process.exit(2);
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n'));
    console.error(usage);
    process.exit(2);
  }
  const args = parsed.data;
  const { eventStore, tokens } = await openStores();
  try {
    const { user_id } = await registerUser(
      eventStore,
      {
        email: args.email.toLowerCase(),
        name: args.name,
        account_type: args['account-type'],
        phone_number: args.phone ?? null,
        doctor: {
          specialty: args.specialty,
          qualification: args.qualification,
          consultation_fee: args.fee,
          registration_number: args['registration-number'],
          medical_council: args.council,
          city: args.city,
          languages: args.languages,
        },
      },
      operatorContext(),
    );
    const session = await startSession({ eventStore, tokens }, { user_id, account_type: args['account-type'] }, 'operator', operatorContext());
    process.stdout.write(JSON.stringify({ user_id, access_token: session.tokens.access_token }) + '\n');
  } finally {
    await eventStore.close();
  }
}

const operatorContext = () => ({ ...systemContext(new Date(), null), actor: { user_id: 'operator-cli', role: 'system' as const } });

/** The event store behind the per-person encryption, as the server writes it (DATA_DIR/events.db, or EVENTSTORE_URL). */
async function openStores() {
  const config = loadConfig();
  const eventStore = await openEventStore(config);
  const tokens = new TokenService({
    secret: loadTokenSecret({ secret: config.TOKEN_SECRET, dataDir: config.dataDir, production: config.production }),
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  return { eventStore, tokens };
}

/**
 * Master key rotation: set DATA_MASTER_KEY to the new key and DATA_MASTER_KEY_PREVIOUS to the old one, run
 * keys:rotate, then drop DATA_MASTER_KEY_PREVIOUS. Only the wraps change; no event is read or written.
 */
async function keys(command: string) {
  if (command === 'keys:generate-master') {
    process.stdout.write(generateMasterKeyText() + '\n');
    return;
  }
  if (command !== 'keys:status' && command !== 'keys:rotate') {
    console.error(usage);
    process.exit(2);
  }
  const store = await keyStoreFromConfig(loadConfig());
  try {
    const rotated = command === 'keys:rotate' ? await store.rotate() : undefined;
    process.stdout.write(JSON.stringify({ store: store.kind, ...(rotated ?? {}), wrapping: await store.wrapping() }) + '\n');
  } finally {
    await store.close();
  }
}

const adminArgsSchema = z.object({ email: z.email(), name: z.string().trim().min(1).max(120).optional() });

/** The first admin: an account with a password, for the support sign-in. */
async function createAdmin(values: Record<string, string | boolean | undefined>) {
  const parsed = adminArgsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n'));
    console.error(usage);
    process.exit(2);
  }
  const password = await readPassword();
  if (password.length < MIN_PASSWORD_LENGTH) {
    console.error(`The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    process.exit(2);
  }
  const { eventStore } = await openStores();
  try {
    const { user_id } = await registerUser(
      eventStore,
      { email: parsed.data.email.toLowerCase(), name: parsed.data.name ?? 'Administrator', account_type: 'admin' },
      operatorContext(),
    );
    await handleUserCommand(eventStore, user_id, { type: 'SetPassword', data: { password_hash: await hashPassword(password) } }, operatorContext());
    process.stdout.write(JSON.stringify({ user_id }) + '\n');
  } finally {
    await eventStore.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * A clinic's licensed brand catalogue, loaded beside the shipped NLEM 2022 list: the whole file is checked first
 * (every bad row reported on stderr with its line number, exit 1, nothing stored); then its rows become one encrypted
 * blob named by a MedicineCatalogueImported event, which the running services' search picks up within seconds.
 */
async function importMedicines(args: string[]) {
  if (args.length !== 1 || !args[0]) {
    console.error(usage);
    process.exit(2);
  }
  const file = args[0];
  if (!existsSync(file)) {
    console.error(`No such file: ${file}`);
    process.exit(2);
  }
  const config = loadConfig();
  const eventStore = await openEventStore(config);
  const blobs = await blobStoreFromConfig(config, eventStore.keys);
  try {
    const result = await importBrandCatalogue({ eventStore, blobs }, file, operatorContext());
    if (!result.ok) {
      console.error(`The catalogue was not imported (nothing stored): ${result.errors.length} problem(s)`);
      for (const error of result.errors) console.error(error);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(JSON.stringify({ import_id: result.import_id, rows: result.rows }) + '\n');
  } finally {
    await blobs.close();
    await eventStore.close();
  }
}
