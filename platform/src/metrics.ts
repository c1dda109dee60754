import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of a process: request latency, projection lag, open sockets, bus redeliveries. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'telemed_' });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'telemed_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status (commands are the POST, PUT and DELETE routes)',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    busRedeliveries: new Counter({
      name: 'telemed_bus_redeliveries_total',
      help: 'Bus messages whose handler failed and that will be delivered again',
      registers: [registry],
    }),
    /** A gauge read when scraped. */
    gauge(name: string, help: string, labelNames: string[], read: (set: (labels: Record<string, string>, value: number) => void) => Promise<void> | void) {
      return new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          await read((labels, value) => this.set(labels, value));
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
