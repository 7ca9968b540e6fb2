// The fallback secret store: secrets.json in the profile, mode 0600, written atomically; not encrypted.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readOptionalFile, restrictFileMode, writePrivateFileAtomic } from '../../profile/private-file.ts';
import { SecretStoreError } from '../auth-errors.ts';
import type { SecretStore } from './secret-store-contract.ts';

export const SECRETS_FILE = 'secrets.json';

const secretsSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) });

export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly location: string;

  private constructor(path: string) {
    this.location = path;
  }

  /**
   * Opens the store in `profileDir`, putting the file's mode back to 0600 if something widened it:
   * a backup restore or a copy may have, and then the tokens were readable by others.
   */
  static async open(profileDir: string, warn: (message: string) => void): Promise<FileSecretStore> {
    const path = join(profileDir, SECRETS_FILE);
    let widened: number | undefined;
    try {
      widened = await restrictFileMode(path);
    } catch (error) {
      throw failed(path, 'cannot check its permissions', error);
    }
    if (widened !== undefined) {
      warn(
        `${path} was readable by others (mode ${widened.toString(8).padStart(4, '0')}); it is 0600 again. ` +
          'If others may have read it, run `mch-sync logout` and `mch-sync login` to replace the tokens.',
      );
    }
    return new FileSecretStore(path);
  }

  async get(account: string): Promise<string | undefined> {
    return (await this.#read())[account];
  }

  async set(account: string, secret: string): Promise<void> {
    const secrets = await this.#read();
    secrets[account] = secret;
    await this.#write(secrets);
  }

  async delete(account: string): Promise<void> {
    const secrets = await this.#read();
    if (!(account in secrets)) return;
    delete secrets[account];
    if (Object.keys(secrets).length > 0) {
      await this.#write(secrets);
      return;
    }
    // Nothing left to protect: no file at all says so more plainly than an empty one.
    try {
      await rm(this.location, { force: true });
    } catch (error) {
      throw failed(this.location, 'cannot delete it', error);
    }
  }

  /** Prototype-free, so an account named like an Object method (`constructor`) is just absent. */
  async #read(): Promise<Record<string, string>> {
    let text: string | undefined;
    try {
      text = await readOptionalFile(this.location);
    } catch (error) {
      throw failed(this.location, 'cannot read it', error);
    }
    if (text === undefined) return Object.create(null) as Record<string, string>;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw failed(this.location, 'it is not JSON', error);
    }
    const result = secretsSchema.safeParse(parsed);
    if (!result.success) throw failed(this.location, 'it is not a secrets file of mch-sync', result.error);
    return Object.assign(Object.create(null) as Record<string, string>, result.data.secrets);
  }

  async #write(secrets: Record<string, string>): Promise<void> {
    try {
      await writePrivateFileAtomic(this.location, `${JSON.stringify({ version: 1, secrets }, null, 2)}\n`);
    } catch (error) {
      throw failed(this.location, 'cannot write it', error);
    }
  }
}

function failed(path: string, reason: string, cause: unknown): SecretStoreError {
  const detail = cause instanceof Error && !(cause instanceof z.ZodError) ? ` (${cause.message})` : '';
  return new SecretStoreError(
    'SECRET_STORE_FAILED',
    `The secrets file ${path} is unusable: ${reason}${detail}. Fix its permissions, or delete it and run \`mch-sync login\` again.`,
    { cause },
  );
}
