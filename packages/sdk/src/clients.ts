/**
 * The two clients: one per credential. Their methods are generated (generated/operations.ts), one
 * per operation of the service's OpenAPI document, named as its `operationId`.
 */
import type { TClientOptions } from './client-core.ts';
import { DirectOperations, OPERATIONS, PartnerOperations } from './generated/operations.ts';

/** The environments of a direct account: test, certification, production. */
export type TEnvironment = 'TesteCF' | 'CerteCF' | 'eCF';
const ENVIRONMENTS: readonly string[] = ['TesteCF', 'CerteCF', 'eCF'];

/**
 * A direct account's API key, in the key's environment. Never construct it in a browser: the key
 * would be readable by anyone who opens the page.
 *
 * ```ts
 * const ecf = new EcfClient({ apiKey: process.env.ECF_API_KEY!, environment: 'TesteCF', baseUrl });
 * const answer = await ecf.submitDocument({ body: invoice }, { wait: 10 });
 * ```
 */
export class EcfClient extends DirectOperations {
  protected readonly operations = OPERATIONS;
  readonly environment: TEnvironment;

  constructor(options: TClientOptions & { apiKey?: string; environment: TEnvironment }) {
    if (!ENVIRONMENTS.includes(options?.environment))
      throw new TypeError('environment is TesteCF, CerteCF or eCF (the environment of the API key).');
    super(options, { apiKey: options.apiKey, environment: options.environment });
    this.environment = options.environment;
  }
}

/**
 * A Partner's key (X-PARTNER-KEY), for its accounts' onboarding, certification and runtime. Without
 * a key it can only upload a certificate with a session's token (`uploadCertificate`: the one call
 * meant for a browser).
 */
export class PartnerClient extends PartnerOperations {
  protected readonly operations = OPERATIONS;

  constructor(options: TClientOptions & { partnerKey?: string }) {
    super(options, { partnerKey: options.partnerKey });
  }
}
