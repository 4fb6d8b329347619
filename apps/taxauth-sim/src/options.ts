/** The simulator's programmatic options (see README "Programmatic use"). */
export type TDirectoryEntry = {
  rnc: string;
  name?: string;
  receptionUrl: string;
  commercialApprovalUrl?: string;
  authenticationUrl?: string;
  /** The environments whose `consultadirectorio` lists the entry; absent: all three. */
  environments?: ReadonlyArray<'testecf' | 'certecf' | 'ecf'>;
};

export type TSimulatorOptions = {
  /** PostgreSQL database that holds the simulator's schema. */
  databaseUrl: string;
  /** Schema created at start; default `taxauth_sim`. */
  schema?: string;
  /** Folder with the official XSDs (file names as published). */
  xsdDirectory: string | URL;
  /** HS256 secret of the tokens; processes sharing it accept each other's tokens. */
  tokenSecret?: string;
  /** Token lifetime; default 3600 (the tax authority's hour). */
  tokenTtlSeconds?: number;
  /** Time between reception and the final state (before it: "En Proceso"); default 200 ms. */
  processingDelayMs?: number;
  /** Answer at once and skip signature and XSD checks (benchmarks of our own pipeline). */
  loadTest?: boolean;
  /** Directory of electronic receivers served by `consultadirectorio`. */
  directory?: TDirectoryEntry[];
  logLevel?: string;
  /** Size of the simulator's connection pool (SIM_DB_POOL_MAX); default 10. */
  maxConnections?: number;
  /** How long a request waits for a pooled connection before it is answered 503 (SIM_DB_POOL_TIMEOUT_MS); default 0: for ever. */
  poolTimeoutMs?: number;
  /** Clock; default `() => new Date()`. */
  now?: () => Date;
};

export const DEFAULT_SCHEMA = 'taxauth_sim';
export const DEFAULT_TOKEN_SECRET = 'taxauth-sim-development-secret-not-for-production';
export const DEFAULT_PROCESSING_DELAY_MS = 200;
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
