// The admin CLI's commands and their options (admin.ts runs them; admin-options.ts parses against them).
import { ALL_SCOPES, ENVIRONMENTS, type TScope } from '@ecf/db';
import type { TCommandSpec, TOptionValues } from './admin-options.ts';

const DEFAULT_SCOPES: TScope[] = ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'];

/**
 * The option each field of createTenant's input comes from: the use-case validates its input with
 * its own schema (the CLI repeats none of its rules) and a refusal names these options.
 */
export const TENANT_FIELD_OPTIONS: Readonly<Record<string, string>> = {
  rnc: '--rnc',
  legalName: '--legal-name',
  tradeName: '--trade-name',
  address: '--address',
  phones: '--phone',
  fiscalEmail: '--email',
  productionState: '--production-state',
};

/** `--scopes a,b` (the default set when absent). */
export function scopesOf(value: TOptionValues[string]): TScope[] {
  if (typeof value !== 'string' || value === '') return DEFAULT_SCOPES;
  return value.split(',').map((scope) => scope.trim()) as TScope[];
}

const TENANT_REFERENCE = { type: 'string', required: true } as const;

/** Every command and its options: parseCommandLine reports any difference, all at once. */
export const COMMANDS: Readonly<Record<string, TCommandSpec>> = {
  'tenant create': {
    options: {
      rnc: { type: 'string', required: true },
      'legal-name': { type: 'string', required: true },
      'trade-name': { type: 'string' },
      address: { type: 'string' },
      phone: { type: 'string', multiple: true },
      email: { type: 'string' },
      'production-state': { type: 'string' },
    },
  },
  'tenant list': { options: {} },
  'key create': {
    options: {
      tenant: TENANT_REFERENCE,
      environment: { type: 'string', required: true, choices: ENVIRONMENTS },
      scopes: { type: 'string' },
      name: { type: 'string' },
    },
    check: (values) => {
      const unknown = scopesOf(values.scopes).filter((scope) => !ALL_SCOPES.includes(scope));
      return unknown.length === 0
        ? []
        : [
            {
              option: '--scopes',
              code: 'invalid_value',
              message: `unknown scope(s) ${unknown.join(', ')}; known: ${ALL_SCOPES.join(', ')}`,
            },
          ];
    },
  },
  'key list': { options: { tenant: TENANT_REFERENCE } },
  'key revoke': { options: { tenant: TENANT_REFERENCE, key: { type: 'string', required: true } } },
  'certificate upload': {
    options: {
      tenant: TENANT_REFERENCE,
      p12: { type: 'string', required: true },
      'password-env': { type: 'string', required: true },
    },
  },
  'certificate list': { options: { tenant: TENANT_REFERENCE } },
  'certificate reencrypt': { options: { tenant: { type: 'string' } } },
  'user create': {
    options: {
      email: { type: 'string', required: true },
      name: { type: 'string', required: true },
      'password-env': { type: 'string', required: true },
      support: { type: 'boolean' },
    },
  },
  'member add': {
    options: {
      tenant: TENANT_REFERENCE,
      email: { type: 'string', required: true },
      role: { type: 'string', required: true, choices: ['owner', 'developer', 'accountant'] },
    },
  },
  demo: { options: { 'keys-file': { type: 'string' }, 'users-file': { type: 'string' } } },
  help: { options: {} },
};
