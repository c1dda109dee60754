import type { Router } from 'express';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { LocalTestGateway } from './local-gateway';
import type { PaymentGateway } from './port';
import { RazorpayGateway } from './razorpay';

export interface Payments {
  gateway: PaymentGateway;
  /** The local test gateway's checkout pages, to mount at LOCAL_CHECKOUT_PATH (null with Razorpay). */
  checkoutPages: Router | null;
  /** The product listens on this port: the local test gateway sends its webhooks there. */
  listening(port: number): void;
  close(): void;
}

/**
 * The gateway packs are paid through: Razorpay when its keys are set; otherwise the local test gateway, which a
 * production service that takes payments refuses to start with (as it refuses the local identity provider).
 */
export function paymentsFromConfig(config: Config, logger: Logger): Payments {
  const { payments } = config;
  if (payments.kind === 'razorpay') return { gateway: new RazorpayGateway(payments), checkoutPages: null, listening: () => {}, close: () => {} };
  if (config.production) throw new Error('RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET must be set in production (the local test gateway is for development only)');
  const local = new LocalTestGateway({ dataDir: config.dataDir, logger });
  return {
    gateway: local,
    checkoutPages: local.router(),
    listening: (port) => local.deliverTo(`http://127.0.0.1:${port}/api/v1/payments/webhook`),
    close: () => local.close(),
  };
}
