import { z } from 'zod';

/** The messaging channels the environment configures (each used only when all its settings are given). */
export interface MessagingConfig {
  email: { url: string; from: string } | null;
  sms: { url: string; key: string; senderId: string; entityId: string | null; templateIds: Record<string, string> } | null;
  whatsapp: { url: string; token: string; phoneNumberId: string; appSecret: string; verifyToken: string | null } | null;
  /**
   * The development outbox stands in for every channel when none is configured; a service that sends messages refuses
   * to start in production with it (messagingFromConfig), as it refuses the local identity provider.
   */
  outbox: boolean;
  production: boolean;
  /** Signs the callback addresses given to providers whose callbacks are unsigned (SMS); random per start in development. */
  callbackSecret: string | null;
  /** MESSAGE_CHANNELS: the channels a reading service offers, told rather than read from secrets it does not hold. */
  offered: ReadonlyArray<'whatsapp' | 'sms' | 'email'> | null;
  /**
   * What is wrong with the channels' settings: refused where messages are sent (messagingFromConfig), not where they
   * are only read, since a reading service is given the settings' public halves only (k8s/configmap.yaml).
   */
  problems: readonly string[];
}

interface MessagingEnv {
  SMTP_URL?: string;
  MAIL_FROM: string;
  SMS_API_URL?: string;
  SMS_API_KEY?: string;
  SMS_SENDER_ID?: string;
  SMS_DLT_ENTITY_ID?: string;
  SMS_TEMPLATE_IDS: string;
  WHATSAPP_API_URL: string;
  WHATSAPP_TOKEN?: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_APP_SECRET?: string;
  WHATSAPP_VERIFY_TOKEN?: string;
  MESSAGING_CALLBACK_SECRET?: string;
  MESSAGE_CHANNELS?: ReadonlyArray<'whatsapp' | 'sms' | 'email'>;
}

const templateIdsSchema = z.record(z.string().regex(/^[a-z_]+(\.[a-z]{2})?$/), z.string().min(1));

/** The channels messages can go out on here: those configured, or every one where the outbox stands in for them. */
export function availableChannels(config: MessagingConfig): Array<'whatsapp' | 'sms' | 'email'> {
  if (config.offered) return (['whatsapp', 'sms', 'email'] as const).filter((channel) => config.offered!.includes(channel));
  if (config.outbox) return ['whatsapp', 'sms', 'email'];
  return [config.whatsapp && 'whatsapp', config.sms && 'sms', config.email && 'email'].filter((channel): channel is 'whatsapp' | 'sms' | 'email' => typeof channel === 'string');
}

export function messagingConfig(env: MessagingEnv, production: boolean): MessagingConfig {
  const problems: string[] = [];
  const together = (names: string[], values: Array<string | undefined>): boolean => {
    const set = values.filter(Boolean).length;
    if (set !== 0 && set !== values.length) problems.push(`Invalid configuration: ${names.join(', ')} are set together (or none)`);
    return set === values.length;
  };
  const email = env.SMTP_URL ? { url: env.SMTP_URL, from: env.MAIL_FROM } : null;
  let sms: MessagingConfig['sms'] = null;
  if (together(['SMS_API_URL', 'SMS_API_KEY', 'SMS_SENDER_ID'], [env.SMS_API_URL, env.SMS_API_KEY, env.SMS_SENDER_ID])) {
    let templateIds: Record<string, string> = {};
    try {
      templateIds = templateIdsSchema.parse(JSON.parse(env.SMS_TEMPLATE_IDS));
    } catch {
      problems.push('Invalid configuration: SMS_TEMPLATE_IDS must be a JSON object of DLT template ids by kind (or kind.language)');
    }
    sms = { url: env.SMS_API_URL!, key: env.SMS_API_KEY!, senderId: env.SMS_SENDER_ID!, entityId: env.SMS_DLT_ENTITY_ID ?? null, templateIds };
  }
  let whatsapp: MessagingConfig['whatsapp'] = null;
  const whatsappNames = ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET'];
  if (together(whatsappNames, [env.WHATSAPP_TOKEN, env.WHATSAPP_PHONE_NUMBER_ID, env.WHATSAPP_APP_SECRET])) {
    whatsapp = { url: env.WHATSAPP_API_URL.replace(/\/+$/, ''), token: env.WHATSAPP_TOKEN!, phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID!, appSecret: env.WHATSAPP_APP_SECRET!, verifyToken: env.WHATSAPP_VERIFY_TOKEN ?? null };
  }
  const configured = Boolean(email || sms || whatsapp);
  if (production && sms && !env.MESSAGING_CALLBACK_SECRET) problems.push('MESSAGING_CALLBACK_SECRET must be set in production with SMS (it signs the delivery-report addresses)');
  return { email, sms, whatsapp, outbox: !configured, production, callbackSecret: env.MESSAGING_CALLBACK_SECRET ?? null, offered: env.MESSAGE_CHANNELS ?? null, problems };
}
