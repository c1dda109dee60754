import { connect } from 'nats';

export const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** Whether a NATS server answers (the development machines and CI run one on 127.0.0.1:4222). */
export async function natsReachable(): Promise<boolean> {
  return connect({ servers: natsUrl, timeout: 1000 }).then(
    async (nc) => {
      await nc.close();
      return true;
    },
    () => false,
  );
}
