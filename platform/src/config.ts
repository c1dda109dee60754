import { z } from 'zod';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';
import { loadMasterKeys } from './keystore/master-key';
import type { IceServer } from '@telemed/contracts';
import { parseIceServers } from './video/ice';
import { messagingConfig, type MessagingConfig } from './messaging/config';

/** Configuration, only from the environment. Every variable here is listed in the README with its default. */
export const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** The built frontend that is served; unset: `frontend/dist` in this checkout. Lets a second build be served beside the first. */
  FRONTEND_DIST: z.string().min(1).optional(),
  DEMO_DATA: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_SECRET: z.string().min(32).optional(),
  DATA_MASTER_KEY: z.string().min(1).optional(),
  DATA_MASTER_KEY_PREVIOUS: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_REDIRECT_URI: z.url().optional(),
  TOKEN_ISSUER: z.string().default('telemed'),
  TOKEN_AUDIENCE: z.string().default('telemed-api'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86400).default(3600),
  LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: z.coerce.number().int().min(1).default(5),
  LOGIN_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
  LOGIN_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  LOGIN_RATE_LIMIT_DELAY_SECONDS: z.coerce.number().int().min(1).default(30),
  /** Views of public posts counted per client address (IPv6: per /64) per hour when not signed in; more are not counted. */
  BLOG_VIEWS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(60),
  TRUST_PROXY: z.string().optional(),
  METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  /** Origins (comma-separated, e.g. `https://console.example.in`) whose pages may call the API from another origin; unset: none. */
  CORS_ORIGINS: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? v.split(',').map((o) => o.trim()).filter(Boolean) : []),
    z.array(z.url().refine((o) => new URL(o).origin === o, 'an origin: scheme, host and port only')),
  ),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** A streamed upload is not held to HTTP_REQUEST_TIMEOUT_MS: it is cut off only after this long without a byte. */
  HTTP_UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  EVENTSTORE_URL: z.string().min(1).optional(),
  MONGODB_URL: z.string().min(1).optional(),
  MONGODB_DATABASE: z.string().min(1).default('telemed'),
  READ_STORE: z.enum(['sqlite', 'memory', 'mongodb']).optional(),
  NATS_URL: z.string().min(1).optional(),
  NOTIFIER_ID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  RESERVATION_HEAL_GRACE_MS: z.coerce.number().int().min(0).default(10000),
  NOTIFIER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(90_000),
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  WS_MAX_BUFFERED_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  WS_MESSAGE_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  WS_MESSAGE_RATE_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(30000),
  CONSULTATION_MAX_MINUTES: z.coerce.number().positive().max(24 * 60).default(30),
  CONSULTATION_EARLY_JOIN_MINUTES: z.coerce.number().min(0).max(24 * 60).default(15),
  /** How often open consultations past their limit are looked for (the next limit is also timed exactly). */
  CONSULTATION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).default(5000),
  /** Peer to peer: how long a participant's dropped call socket may stay away before they are recorded as gone. */
  CONSULTATION_DISCONNECT_GRACE_MS: z.coerce.number().int().min(50).max(10 * 60_000).default(15_000),
  ICE_SERVERS: z.string().default('[{"urls":"stun:stun.l.google.com:19302"}]'),
  TURN_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  LIVEKIT_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL').optional()),
  LIVEKIT_API_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  LIVEKIT_API_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
  WS_SIGNAL_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  FAULT_INJECTION: z.string().optional(),
  BLOB_STORE: z.enum(['files', 'gridfs']).optional(),
  /** Per patient: the files of their records (their reports, their doctors' prescription files) may hold this much; reports past it are refused (413). */
  RECORDS_QUOTA_MB: z.coerce.number().positive().max(1024 * 1024).default(1024),
  /** The Writing Assistant's model: an OpenAI-compatible API's base address (`/chat/completions` is added); unset: bundled ideas. */
  WRITING_MODEL_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL').optional()),
  WRITING_MODEL_API_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  WRITING_MODEL_NAME: z.string().min(1).default('gpt-4o-mini'),
  WRITING_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  /** E-mail by SMTP (nodemailer), e.g. `smtps://user:pass@smtp.example.in:465`; unset: no e-mail (the outbox in development). */
  SMTP_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional()),
  /** The sender of e-mails, e.g. `Telemed <no-reply@example.in>`. */
  MAIL_FROM: z.string().min(3).default('Telemed <no-reply@localhost>'),
  /** SMS through Exotel's send API with DLT templates (`https://api.exotel.com/v1/Accounts/<sid>/Sms/send.json`); unset: no SMS. */
  SMS_API_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  /** `<api key>:<api token>` for the SMS API's basic authentication. */
  SMS_API_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(3).optional()),
  /** The DLT-registered sender id (header), e.g. `TLMEDC`. */
  SMS_SENDER_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).max(11).optional()),
  /** The DLT principal entity id. */
  SMS_DLT_ENTITY_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  /** DLT template ids as JSON: `{"<kind>": "<id>", "<kind>.<language>": "<id>"}` (a language's own before the kind's). */
  SMS_TEMPLATE_IDS: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('{}')),
  /** WhatsApp Cloud API: the Graph API's base address, the access token and the sending number's id. */
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com/v21.0'),
  WHATSAPP_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  WHATSAPP_PHONE_NUMBER_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  /** The app secret that signs the status webhook (`X-Hub-Signature-256`). */
  WHATSAPP_APP_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).optional()),
  /** What the webhook's subscription check must echo (`hub.verify_token`). */
  WHATSAPP_VERIFY_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).optional()),
  /** Signs the delivery-report addresses given to the SMS provider (its callbacks carry no signature of their own). */
  MESSAGING_CALLBACK_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  /**
   * The channels the profile offers (comma-separated: whatsapp, sms, email), for a service that reads but does not send
   * and so holds no provider's secret (the query service); unset: those this process's own settings configure.
   */
  MESSAGE_CHANNELS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .transform((v) => v.split(',').map((c) => c.trim()).filter(Boolean))
      .pipe(z.array(z.enum(['whatsapp', 'sms', 'email'])).max(3))
      .optional(),
  ),
  /** The countries (ISO 3166 codes, comma-separated) whose mobile numbers may sign in by phone and be sent codes. */
  PHONE_COUNTRIES: z
    .string()
    .default('IN')
    .transform((v) => v.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'two-letter country codes')).min(1)),
  /** Minutes before a confirmed consultation at which reminders are sent. */
  REMINDER_OFFSETS_MINUTES: z
    .string()
    .default('1440,60')
    .transform((v) => [...new Set(v.split(',').map((m) => Number(m.trim())))].sort((a, b) => b - a))
    .pipe(z.array(z.number().int().min(1).max(14 * 24 * 60)).max(5)),
  /** Who sells the packs, as their receipts name them (issue 36): the business's name, address and GSTIN. */
  BUSINESS_NAME: z.string().min(1).max(120).default('Telemed'),
  BUSINESS_ADDRESS: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(300).optional()),
  BUSINESS_GSTIN: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, 'a GSTIN (15 characters)').optional()),
  /** The credits a patient's wallet opens with (issue 36): the seeds' 100; a clinic that gives none sets 0. */
  STARTING_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** Razorpay's API key id and secret (issue 36): unset outside production, packs are paid at the local test gateway. */
  RAZORPAY_KEY_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).optional()),
  RAZORPAY_KEY_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).optional()),
  /** The secret Razorpay signs its webhooks with (`X-Razorpay-Signature`), set where the webhook is configured. */
  RAZORPAY_WEBHOOK_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).optional()),
  RAZORPAY_API_URL: z.url().default('https://api.razorpay.com/v1'),
  /** How often messages falling due are looked for (the next due one is also timed exactly). */
  MESSAGE_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).default(15_000),
  /** How long one attempt holds a message: a process that died mid-send leaves it to be taken up again after this. */
  MESSAGE_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
});

export type Config = z.infer<typeof envSchema> & {
  production: boolean;
  dataDir: string;
  /** Where browsers reach the product (no trailing slash). */
  publicUrl: string;
  /** The OpenID Connect provider to sign in with: Google when configured, else the local development provider. */
  identity: { kind: 'google' | 'local'; issuer: string; clientId: string; clientSecret: string; redirectUri: string };
  /** Express's `trust proxy` from TRUST_PROXY: false (the default) means req.ip and req.secure come from the connection. */
  trustProxy: TrustProxy;
  /** Where the read models live: READ_STORE, else MongoDB when MONGODB_URL is set, else a SQLite file in DATA_DIR. */
  readStoreKind: 'sqlite' | 'memory' | 'mongodb';
  /** ICE_SERVERS, parsed and validated. */
  iceServers: IceServer[];
  /** Where uploaded files live: BLOB_STORE, else GridFS when MONGODB_URL is set, else files under DATA_DIR/blobs. */
  blobStoreKind: 'files' | 'gridfs';
  /** RECORDS_QUOTA_MB in bytes (MB of 1024 × 1024 bytes, as the upload limits). */
  recordsQuotaBytes: number;
  /** Which channels are configured; `outbox` when none is and this is not production. */
  messaging: MessagingConfig;
  /** Who sells the packs, as their receipts name them: BUSINESS_NAME, BUSINESS_ADDRESS and BUSINESS_GSTIN. */
  seller: { name: string; address?: string; gstin?: string };
  /** Razorpay when configured; otherwise `unset` (paymentGatewayFromConfig then refuses production, else serves the local test gateway). */
  payments: PaymentsConfig;
};

export type PaymentsConfig = { kind: 'razorpay'; keyId: string; keySecret: string; webhookSecret: string; apiUrl: string } | { kind: 'unset' };

function paymentsConfig(env_: z.infer<typeof envSchema>): PaymentsConfig {
  const { RAZORPAY_KEY_ID: keyId, RAZORPAY_KEY_SECRET: keySecret, RAZORPAY_WEBHOOK_SECRET: webhookSecret } = env_;
  if (keyId && keySecret && webhookSecret) return { kind: 'razorpay', keyId, keySecret, webhookSecret, apiUrl: env_.RAZORPAY_API_URL.replace(/\/+$/, '') };
  if (keyId || keySecret || webhookSecret) throw new Error('Invalid configuration: RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET are set together');
  return { kind: 'unset' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const production = parsed.data.NODE_ENV === 'production';
  if (production && parsed.data.FAULT_INJECTION) throw new Error('FAULT_INJECTION is refused in production');
  const env_ = parsed.data;
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(env_.TRUST_PROXY);
  } catch (error) {
    throw new Error(`Invalid configuration: ${(error as Error).message}`, { cause: error });
  }
  if (env_.DATA_MASTER_KEY) {
    // The format is checked at once; a missing key in production stops the start where the key store opens.
    try {
      loadMasterKeys({ masterKey: env_.DATA_MASTER_KEY, previous: env_.DATA_MASTER_KEY_PREVIOUS, dataDir: env_.DATA_DIR, production });
    } catch (error) {
      throw new Error(`Invalid configuration: ${(error as Error).message}`, { cause: error });
    }
  }
  if (env_.HTTP_HEADERS_TIMEOUT_MS > env_.HTTP_REQUEST_TIMEOUT_MS) throw new Error('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  const livekitSet = [env_.LIVEKIT_URL, env_.LIVEKIT_API_KEY, env_.LIVEKIT_API_SECRET].filter(Boolean).length;
  if (livekitSet !== 0 && livekitSet !== 3) throw new Error('Invalid configuration: LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET are set together (or none, for peer to peer)');
  let iceServers: IceServer[];
  try {
    iceServers = parseIceServers(env_.ICE_SERVERS);
  } catch (error) {
    throw new Error(`Invalid configuration: ${(error as Error).message}`, { cause: error });
  }
  const readStoreKind = env_.READ_STORE ?? (env_.MONGODB_URL ? 'mongodb' : 'sqlite');
  if (readStoreKind === 'mongodb' && !env_.MONGODB_URL) throw new Error('Invalid configuration: READ_STORE=mongodb needs MONGODB_URL');
  const blobStoreKind = env_.BLOB_STORE ?? (env_.MONGODB_URL ? 'gridfs' : 'files');
  if (blobStoreKind === 'gridfs' && !env_.MONGODB_URL) throw new Error('Invalid configuration: BLOB_STORE=gridfs needs MONGODB_URL');
  const publicUrl = (env_.PUBLIC_URL ?? `http://localhost:${env_.PORT}`).replace(/\/+$/, '');
  const redirectUri = env_.OIDC_REDIRECT_URI ?? `${publicUrl}/auth/callback`;
  let identity: Config['identity'];
  if (env_.GOOGLE_CLIENT_ID) {
    if (!env_.GOOGLE_CLIENT_SECRET) throw new Error('GOOGLE_CLIENT_SECRET must be set with GOOGLE_CLIENT_ID');
    identity = { kind: 'google', issuer: env_.OIDC_ISSUER ?? 'https://accounts.google.com', clientId: env_.GOOGLE_CLIENT_ID, clientSecret: env_.GOOGLE_CLIENT_SECRET, redirectUri };
  } else {
    if (production) throw new Error('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set in production (the local identity provider is for development only)');
    identity = { kind: 'local', issuer: `${publicUrl}/oidc`, clientId: 'telemed-local', clientSecret: randomBytes(24).toString('base64url'), redirectUri };
  }
  const recordsQuotaBytes = Math.floor(env_.RECORDS_QUOTA_MB * 1024 * 1024);
  const messaging = messagingConfig(env_, production);
  const payments = paymentsConfig(env_);
  const seller = { name: env_.BUSINESS_NAME, ...(env_.BUSINESS_ADDRESS ? { address: env_.BUSINESS_ADDRESS } : {}), ...(env_.BUSINESS_GSTIN ? { gstin: env_.BUSINESS_GSTIN } : {}) };
  return { ...env_, messaging, payments, seller, production, dataDir: resolve(env_.DATA_DIR), publicUrl, identity, trustProxy, readStoreKind, iceServers, blobStoreKind, recordsQuotaBytes };
}

/** The notifier's per-socket limits from the configuration. */
export function socketLimitsFromConfig(config: Config) {
  return {
    maxSocketsPerUser: config.WS_MAX_SOCKETS_PER_USER,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    messageRateLimit: config.WS_MESSAGE_RATE_LIMIT,
    messageRateWindowMs: config.WS_MESSAGE_RATE_WINDOW_MS,
    signalRateLimit: config.WS_SIGNAL_RATE_LIMIT,
  };
}
