import { createRouter } from '../../trpc/init.ts';
import { getAccount } from './get-account.ts';
import { updateProfile } from './update-profile.ts';
import { updateSettings } from './update-settings.ts';

/** The active tenant's account: everyone reads it, owners change the profile and the settings. */
export const accountRouter = createRouter({
  get: getAccount,
  updateProfile,
  updateSettings,
});
