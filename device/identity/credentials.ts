// Checks a user name (or email) and password, taking as long for an unknown user as for a wrong password.
import type { UserRow, UserStore } from '../store/users.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export type CredentialCheck = (login: string, password: string) => UserRow | undefined;

/** A checker over `users`. Auth0 signs in by email; device users are known by name, so both work. */
export function credentialChecker(users: UserStore): CredentialCheck {
  // Hashing against a throwaway hash for unknown users keeps the answer time from telling who exists.
  let decoyHash: string | undefined;
  return (login, password) => {
    const user = users.byName(login) ?? users.byEmail(login);
    if (!user) {
      decoyHash ??= hashPassword('decoy password');
      verifyPassword(password, decoyHash);
      return undefined;
    }
    return verifyPassword(password, user.password_hash) ? user : undefined;
  };
}
