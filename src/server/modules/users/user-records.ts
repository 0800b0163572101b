/**
 * The users module's public entry for other modules (docs/ARCHITECTURE.md, Boundaries): the users
 * table is written by this module only, and these are the reads and writes of user rows that sign-in,
 * uploads, driver verification and payout accounts make. Everything else in the module is its own.
 */
export {
  attachPayoutAccount,
  findStoredPayoutAccount,
  findUserByEmail,
  findUserById,
  findUserByOidcIdentity,
  findUserForUpdate,
  findUserIdByPayoutAccount,
  grantRole,
  insertUser,
  sendDriverBackToReview,
  setUserImage,
  setTwoFactorEnabledAt,
  setUserVerified,
  storePayoutAccountState,
  updateUser,
  type StoredPayoutAccount,
  type UserImageField,
  type UserRow,
} from './users.queries';
