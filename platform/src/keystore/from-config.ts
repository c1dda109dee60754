import { join } from 'node:path';
import type { Config } from '../config';
import type { KeyStore } from './port';
import { masterKeysFromConfig } from './master-key';
import { SqliteKeyStore } from './sqlite';

/** The key store the environment asks for: MongoDB when MONGODB_URL is set, else DATA_DIR/keys.db. */
export async function keyStoreFromConfig(config: Config): Promise<KeyStore> {
  const masters = masterKeysFromConfig(config);
  if (config.MONGODB_URL) return (await import('./mongodb')).MongoKeyStore.connect(config.MONGODB_URL, config.MONGODB_DATABASE, masters);
  return new SqliteKeyStore({ filename: join(config.dataDir, 'keys.db'), masters });
}
