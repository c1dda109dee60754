import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { z } from 'zod';
import { accountTypeSchema } from '@telemed/contracts';
import { SqliteEventStore, TokenService, loadConfig, loadTokenSecret } from '@telemed/platform';
import { registerUser } from './users/service';
import { systemContext } from './decider';

/** Operator CLI: `npm run cli -- user:create --email E --name N --account-type patient|doctor|admin [--phone P]`. */
const usage = `usage: npm run cli -- user:create --email E --name N --account-type patient|doctor|admin [--phone P]
       [--specialty S] [--qualification Q] [--fee RUPEES] [--registration-number R] [--council C]`;

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
});

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: Object.fromEntries(
      ['email', 'name', 'account-type', 'phone', 'specialty', 'qualification', 'fee', 'registration-number', 'council'].map((k) => [
        k,
        { type: 'string' as const },
      ]),
    ),
  });
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
  const config = loadConfig();
  const eventStore = new SqliteEventStore({ filename: join(config.dataDir, 'events.db'), synchronous: config.SQLITE_SYNCHRONOUS });
  const tokens = new TokenService({
    secret: loadTokenSecret({ secret: config.TOKEN_SECRET, dataDir: config.dataDir, production: config.production }),
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
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
        },
      },
      { ...systemContext(new Date(), null), actor: { user_id: 'operator-cli', role: 'system' } },
    );
    const access_token = await tokens.issue({ user_id, account_type: args['account-type'] });
    process.stdout.write(JSON.stringify({ user_id, access_token }) + '\n');
  } finally {
    await eventStore.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
