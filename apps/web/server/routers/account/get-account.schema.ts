import { z } from 'zod';
import { ZAccount } from './account.schema.ts';

export const ZGetAccountInput = z.void();
export const ZGetAccountOutput = ZAccount;
