import { useEffect, useState } from 'react';

interface Health {
  status: string;
}

/**
 * Placeholder shell until the screens of the seeds land (issue 6): shows that the built frontend is served by the
 * same process as the API, and links to the API documentation.
 */
export function App() {
  const [health, setHealth] = useState<string>('checking…');
  useEffect(() => {
    fetch('/healthz')
      .then((r) => r.json() as Promise<Health>)
      .then((h) => setHealth(h.status))
      .catch(() => setHealth('unreachable'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem', lineHeight: 1.5 }}>
      <h1>Telemed</h1>
      <p>Video consultations with doctors across India.</p>
      <p>
        API status: <strong data-testid="api-status">{health}</strong>
      </p>
      <p>
        <a href="/docs">API documentation</a>
      </p>
    </main>
  );
}
