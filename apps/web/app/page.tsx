import { StatusPanel } from '@ecf/ui';
import { env } from '../env.ts';

const API_URL = env.apiUrl;

/** Placeholder home page: the portal arrives in its own issue. */
export default function HomePage() {
  return (
    <main>
      <h1>e-CF Portal</h1>
      <p>The portal is not built yet. The REST API is running; use an API key to issue and query e-CF.</p>
      <StatusPanel
        title="Services"
        services={[
          { name: 'API', url: `${API_URL}/healthz`, description: 'REST contract (X-API-KEY)' },
          { name: 'Readiness', url: `${API_URL}/readyz`, description: 'storage, migrations, rate limit' },
        ]}
      />
    </main>
  );
}
