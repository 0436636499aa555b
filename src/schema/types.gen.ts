/* eslint-disable */
// Generated from schemas/*.schema.json by `npm run generate`. Do not edit by hand.

/**
 * steward.yaml at the repository root: where resources are and how to reach the APIs.
 */
export interface StewardProject {
  /**
   * Always steward/v1.
   */
  apiVersion: 'steward/v1';
  kind: 'Project';
  metadata?: {
    /**
     * The resource's key: lowercase letters, digits, '.', '_' and '-', unique per kind; alerts refer to dashboards by it.
     */
    name?: string;
    /**
     * Free text for people; never sent.
     */
    description?: string;
  };
  spec: {
    /**
     * Globs, relative to this file, of the files holding Dashboard, Alert and CloudService documents.
     *
     * @minItems 1
     */
    resources?: [string, ...string[]];
    observability?: {
      /**
       * Base URL, e.g. https://api.example.com or ${STEWARD_OBS_URL}.
       */
      url?: string;
      /**
       * Secrets are only ever named, never written: { env: NAME }.
       */
      token?: {
        /**
         * Name of the environment variable that holds the secret.
         */
        env: string;
      };
      /**
       * Client-side rate limit, requests per minute per credential.
       */
      requestsPerMinute?: number;
      /**
       * Per-request timeout in seconds.
       */
      timeoutSeconds?: number;
      /**
       * Tag put on every dashboard steward creates (default managed-by:steward).
       */
      markerTag?: string;
    };
    cloud?: {
      /**
       * Which cloud API this connection speaks: seed (the seed document: .../ingestpipes, .../ingestpipesReversePrivateEndpoints) or clickhouse-cloud (the real ClickHouse Cloud API: .../clickpipes, .../clickpipesReversePrivateEndpoints). Default seed.
       */
      api?: 'seed' | 'clickhouse-cloud';
      /**
       * Base URL, e.g. https://api.example.com or ${STEWARD_OBS_URL}.
       */
      url?: string;
      /**
       * Secrets are only ever named, never written: { env: NAME }.
       */
      keyId?: {
        /**
         * Name of the environment variable that holds the secret.
         */
        env: string;
      };
      /**
       * Secrets are only ever named, never written: { env: NAME }.
       */
      keySecret?: {
        /**
         * Name of the environment variable that holds the secret.
         */
        env: string;
      };
      /**
       * Client-side rate limit, requests per minute per credential.
       */
      requestsPerMinute?: number;
      /**
       * Per-request timeout in seconds.
       */
      timeoutSeconds?: number;
    };
    /**
     * State file (what steward last sent to each alert), relative to this file. Default .steward/state.json.
     */
    state?: string;
    /**
     * Journal of confirmed writes, relative to this file. Default .steward/journal.jsonl.
     */
    journal?: string;
    /**
     * Requests in flight at once (default 4).
     */
    concurrency?: number;
    /**
     * Overlays chosen with --env NAME, merged over spec.
     */
    environments?: {
      [k: string]:
        | {
            observability?: {
              /**
               * Base URL, e.g. https://api.example.com or ${STEWARD_OBS_URL}.
               */
              url?: string;
              /**
               * Secrets are only ever named, never written: { env: NAME }.
               */
              token?: {
                /**
                 * Name of the environment variable that holds the secret.
                 */
                env: string;
              };
              /**
               * Client-side rate limit, requests per minute per credential.
               */
              requestsPerMinute?: number;
              /**
               * Per-request timeout in seconds.
               */
              timeoutSeconds?: number;
              /**
               * Tag put on every dashboard steward creates (default managed-by:steward).
               */
              markerTag?: string;
            };
            cloud?: {
              /**
               * Which cloud API this connection speaks: seed (the seed document: .../ingestpipes, .../ingestpipesReversePrivateEndpoints) or clickhouse-cloud (the real ClickHouse Cloud API: .../clickpipes, .../clickpipesReversePrivateEndpoints). Default seed.
               */
              api?: 'seed' | 'clickhouse-cloud';
              /**
               * Base URL, e.g. https://api.example.com or ${STEWARD_OBS_URL}.
               */
              url?: string;
              /**
               * Secrets are only ever named, never written: { env: NAME }.
               */
              keyId?: {
                /**
                 * Name of the environment variable that holds the secret.
                 */
                env: string;
              };
              /**
               * Secrets are only ever named, never written: { env: NAME }.
               */
              keySecret?: {
                /**
                 * Name of the environment variable that holds the secret.
                 */
                env: string;
              };
              /**
               * Client-side rate limit, requests per minute per credential.
               */
              requestsPerMinute?: number;
              /**
               * Per-request timeout in seconds.
               */
              timeoutSeconds?: number;
            };
            state?: string;
            journal?: string;
            concurrency?: number;
          }
        | undefined;
    };
  };
}

/**
 * A dashboard: created when absent; the API cannot update or delete dashboards.
 */
export interface StewardDashboard {
  /**
   * Always steward/v1.
   */
  apiVersion: 'steward/v1';
  kind: 'Dashboard';
  metadata: {
    /**
     * The resource's key: lowercase letters, digits, '.', '_' and '-', unique per kind; alerts refer to dashboards by it.
     */
    name: string;
    /**
     * Free text for people; never sent.
     */
    description?: string;
    /**
     * Pin this file to a specific live dashboard id instead of matching by name.
     */
    id?: string;
  };
  spec: {
    /**
     * The live dashboard's name: its identity on the server.
     */
    name: string;
    /**
     * Compared as a set; the marker tag is added by steward.
     */
    tags?: string[];
    tiles?: {
      /**
       * Tile title; unique inside its dashboard (tiles are matched by name).
       */
      name: string;
      /**
       * Grid column, 0-23 (the grid is 24 wide).
       */
      x: number;
      /**
       * Grid row.
       */
      y: number;
      /**
       * Width in grid units, 1-24.
       */
      w: number;
      /**
       * Height in grid units.
       */
      h: number;
      asRatio?: boolean;
      series?: {
        /**
         * Chart type of the series.
         */
        type?: 'time' | 'table' | 'number' | 'histogram' | 'search' | 'markdown';
        /**
         * Where the data comes from.
         */
        dataSource?: 'events' | 'metrics';
        /**
         * Identifier of the data source.
         */
        sourceId?: string;
        /**
         * Aggregation function.
         */
        aggFn?: 'avg' | 'count' | 'count_distinct' | 'last_value' | 'max' | 'min' | 'quantile' | 'sum';
        /**
         * Field to aggregate (e.g. with avg).
         */
        field?: string;
        /**
         * Filter expression.
         */
        where?: string;
        /**
         * Language of where.
         */
        whereLanguage?: 'lucene' | 'sql';
        /**
         * Grouping fields; may be empty.
         */
        groupBy?: string[];
        metricName?: string;
        metricDataType?: 'sum' | 'gauge' | 'histogram';
      }[];
    }[];
  };
}

/**
 * An existing alert whose configuration steward sets with PUT.
 */
export interface StewardAlert {
  /**
   * Always steward/v1.
   */
  apiVersion: 'steward/v1';
  kind: 'Alert';
  metadata: {
    /**
     * The resource's key: lowercase letters, digits, '.', '_' and '-', unique per kind; alerts refer to dashboards by it.
     */
    name: string;
    /**
     * Free text for people; never sent.
     */
    description?: string;
    /**
     * The existing alert's id (the API cannot create alerts).
     */
    id: string;
  };
  spec: {
    name: string;
    message?: string;
    /**
     * Value the series is compared against.
     */
    threshold: number;
    thresholdType: 'above' | 'below';
    /**
     * a number followed by m or h, like 5m or 1h
     */
    interval: string;
    /**
     * tile: the alert watches a dashboard tile (give tile:). search: a saved search, kept as it is on the server.
     */
    source: 'tile' | 'search';
    /**
     * Resolved to dashboardId and tileId at plan/apply time.
     */
    tile?: {
      /**
       * metadata.name of a Dashboard in this project.
       */
      dashboard: string;
      /**
       * Name of a tile of that dashboard.
       */
      name: string;
    };
    channel: {
      type: 'webhook';
      /**
       * A service-assigned id: 24 lowercase hex characters.
       */
      webhookId: string;
    };
  };
}

/**
 * Expectations for the drift-review report of a cloud database service.
 */
export interface StewardCloudService {
  /**
   * Always steward/v1.
   */
  apiVersion: 'steward/v1';
  kind: 'CloudService';
  metadata: {
    /**
     * The resource's key: lowercase letters, digits, '.', '_' and '-', unique per kind; alerts refer to dashboards by it.
     */
    name: string;
    /**
     * Free text for people; never sent.
     */
    description?: string;
  };
  spec: {
    /**
     * A UUID, as the cloud console shows it.
     */
    organizationId: string;
    /**
     * A UUID, as the cloud console shows it.
     */
    serviceId: string;
    backups?: {
      /**
       * Newest finished backup must be younger than this.
       */
      maxAgeHours?: number;
      /**
       * At least this many backups.
       */
      minCount?: number;
      /**
       * No backup slower than this.
       */
      maxDurationMinutes?: number;
      /**
       * Largest size change between consecutive backups.
       */
      maxSizeChangePercent?: number;
    };
    pipes?: {
      expected?: {
        name: string;
        /**
         * Expected state, e.g. Running.
         */
        state?: string;
        scaling?: {
          replicas?: number;
          concurrency?: number;
          /**
           * millicores
           */
          replicaCpuMillicores?: number;
          /**
           * gigabytes
           */
          replicaMemoryGb?: number;
        };
        destination?: {
          database?: string;
          table?: string;
          managedTable?: boolean;
        };
        /**
         * Subset of the pipe's source to compare (e.g. { kafka: { topics: events } }); credentials are never compared or shown.
         */
        source?: {};
        /**
         * Subset of the pipe's settings to compare.
         */
        settings?: {};
      }[];
      /**
       * Report pipes that no file lists (default true).
       */
      reportUnlisted?: boolean;
    };
    reversePrivateEndpoints?: {
      expected?: {
        description: string;
        /**
         * Expected status (default Ready).
         */
        status?: string;
      }[];
      /**
       * Report endpoints that no file lists (default false).
       */
      reportUnlisted?: boolean;
    };
  };
}

