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
       * Which observability API this connection speaks: seed (the seed document: create dashboards, update alerts), hyperdx (HyperDX external API v2: dashboards and alerts read, created, updated and deleted; sources and webhooks by name) or clickstack-cloud (the same resources through ClickHouse Cloud's /v1/organizations/{org}/services/{svc}/clickstack paths, Basic auth with keyId/keySecret). Default seed.
       */
      api?: 'seed' | 'hyperdx' | 'clickstack-cloud';
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
       * The ClickHouse Cloud API key id, named: { env: NAME }. Used by the clickstack-cloud profile (Basic auth).
       */
      keyId?: {
        /**
         * Name of the environment variable that holds the ClickHouse Cloud API key id.
         */
        env: string;
      };
      /**
       * The ClickHouse Cloud API key secret, named: { env: NAME }. Used by the clickstack-cloud profile (Basic auth).
       */
      keySecret?: {
        /**
         * Name of the environment variable that holds the ClickHouse Cloud API key secret.
         */
        env: string;
      };
      /**
       * ClickHouse Cloud organization id (clickstack-cloud profile); ${VAR} allowed.
       */
      organizationId?: string;
      /**
       * ClickHouse Cloud service id (clickstack-cloud profile); ${VAR} allowed.
       */
      serviceId?: string;
      /**
       * Client-side rate limit, requests per minute per credential. Default 100; 50 with clickstack-cloud, under ClickHouse Cloud's 10 requests in 10 s per API key.
       */
      requestsPerMinute?: number;
      /**
       * Per-request timeout in seconds.
       */
      timeoutSeconds?: number;
      /**
       * Send the credentials over plain http to a host that is not this machine (127.0.0.0/8, ::1, localhost). Default false: steward refuses, since the token or key would cross the network in clear.
       */
      allowInsecureHttp?: boolean;
      /**
       * Tag put on every dashboard steward creates (default managed-by:steward/<metadata.name>, one per project; managed-by:steward without a name).
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
       * Client-side rate limit, requests per minute per credential. Default 100; 50 with clickhouse-cloud, under ClickHouse Cloud's 10 requests in 10 s per API key.
       */
      requestsPerMinute?: number;
      /**
       * Per-request timeout in seconds.
       */
      timeoutSeconds?: number;
      /**
       * Send the credentials over plain http to a host that is not this machine (127.0.0.0/8, ::1, localhost). Default false: steward refuses, since the token or key would cross the network in clear.
       */
      allowInsecureHttp?: boolean;
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
     * Delete what steward manages but no file declares (orphan dashboards, alerts that left the files), as --prune does; only where the API can delete.
     */
    prune?: boolean;
    /**
     * When set, ${VAR} in resource files may read only variables whose names start with this prefix (credential variables never), even one whose name says it holds a secret. Unset, they may read any variable but the credentials and those whose names say they hold secrets (GITHUB_TOKEN, DB_PASSWORD). Limits what a pull request's files can read from the CI job's environment.
     */
    resourceVariablePrefix?: string;
    /**
     * Overlays chosen with --env NAME, merged over spec.
     */
    environments?: {
      [k: string]:
        | {
            observability?: {
              /**
               * Which observability API this connection speaks: seed (the seed document: create dashboards, update alerts), hyperdx (HyperDX external API v2: dashboards and alerts read, created, updated and deleted; sources and webhooks by name) or clickstack-cloud (the same resources through ClickHouse Cloud's /v1/organizations/{org}/services/{svc}/clickstack paths, Basic auth with keyId/keySecret). Default seed.
               */
              api?: 'seed' | 'hyperdx' | 'clickstack-cloud';
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
               * The ClickHouse Cloud API key id, named: { env: NAME }. Used by the clickstack-cloud profile (Basic auth).
               */
              keyId?: {
                /**
                 * Name of the environment variable that holds the ClickHouse Cloud API key id.
                 */
                env: string;
              };
              /**
               * The ClickHouse Cloud API key secret, named: { env: NAME }. Used by the clickstack-cloud profile (Basic auth).
               */
              keySecret?: {
                /**
                 * Name of the environment variable that holds the ClickHouse Cloud API key secret.
                 */
                env: string;
              };
              /**
               * ClickHouse Cloud organization id (clickstack-cloud profile); ${VAR} allowed.
               */
              organizationId?: string;
              /**
               * ClickHouse Cloud service id (clickstack-cloud profile); ${VAR} allowed.
               */
              serviceId?: string;
              /**
               * Client-side rate limit, requests per minute per credential. Default 100; 50 with clickstack-cloud, under ClickHouse Cloud's 10 requests in 10 s per API key.
               */
              requestsPerMinute?: number;
              /**
               * Per-request timeout in seconds.
               */
              timeoutSeconds?: number;
              /**
               * Send the credentials over plain http to a host that is not this machine (127.0.0.0/8, ::1, localhost). Default false: steward refuses, since the token or key would cross the network in clear.
               */
              allowInsecureHttp?: boolean;
              /**
               * Tag put on every dashboard steward creates (default managed-by:steward/<metadata.name>, one per project; managed-by:steward without a name).
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
               * Client-side rate limit, requests per minute per credential. Default 100; 50 with clickhouse-cloud, under ClickHouse Cloud's 10 requests in 10 s per API key.
               */
              requestsPerMinute?: number;
              /**
               * Per-request timeout in seconds.
               */
              timeoutSeconds?: number;
              /**
               * Send the credentials over plain http to a host that is not this machine (127.0.0.0/8, ::1, localhost). Default false: steward refuses, since the token or key would cross the network in clear.
               */
              allowInsecureHttp?: boolean;
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
 * The chart, in the form of HyperDX API v2 (2026-08): displayType decides the variant (line, stacked_bar, table, number, pie, bar, heatmap, search, event_patterns, markdown; configType: sql for raw SQL). Use it or series, not both.
 */
export type TileConfig = {
  displayType:
    'line' | 'stacked_bar' | 'table' | 'number' | 'pie' | 'bar' | 'heatmap' | 'search' | 'event_patterns' | 'markdown';
};

/**
 * A dashboard: created when absent; updated and deleted (with prune) where the API can.
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
     * Pin this file to a specific live dashboard id instead of matching by name: the id as the service assigned it (24 lowercase hex characters on the seed API; any id elsewhere).
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
     *
     * Items: A tag (at most 32 characters on the hyperdx and clickstack-cloud profiles).
     */
    tags?: string[];
    tiles?: {
      /**
       * Tile title; unique inside its dashboard (tiles are matched by name).
       */
      name: string;
      /**
       * Grid column (the grid is 24 wide: 0-23 on the hyperdx and clickstack-cloud profiles, checked per profile).
       */
      x: number;
      /**
       * Grid row (0 or more on the hyperdx and clickstack-cloud profiles).
       */
      y: number;
      /**
       * Width in grid units (1-24 on the hyperdx and clickstack-cloud profiles).
       */
      w: number;
      /**
       * Height in grid units (1 or more on the hyperdx and clickstack-cloud profiles).
       */
      h: number;
      asRatio?: boolean;
      /**
       * The older series form (seed profile and HyperDX before 2026-08); prefer config.
       */
      series?: {
        /**
         * Chart type of the series: time, table, number, search and markdown on the hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack) (all series of a tile of one type); histogram on the seed profile only.
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
         * Search series only: the fields the search table shows (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        fields?: string[];
        /**
         * Aggregation function (time, table, number). any and none: hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack) only.
         */
        aggFn?: 'avg' | 'count' | 'count_distinct' | 'last_value' | 'max' | 'min' | 'quantile' | 'sum' | 'any' | 'none';
        /**
         * Quantile level for aggFn quantile, 0 to 1 (0.95 for p95); time, table and number series (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        level?: number;
        /**
         * Field to aggregate (e.g. with avg).
         */
        field?: string;
        /**
         * Display name of the series; time, table and number series (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        alias?: string;
        /**
         * Filter expression.
         */
        where?: string;
        /**
         * Language of where.
         */
        whereLanguage?: 'lucene' | 'sql';
        /**
         * Grouping fields; may be empty (time and table series; at most 10 on the hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        groupBy?: string[];
        /**
         * Table series only: sort order of the rows (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        sortOrder?: 'desc' | 'asc';
        /**
         * Time series only: drawn as lines or stacked bars (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        displayType?: 'stacked_bar' | 'line';
        numberFormat?: SeriesNumberFormat;
        metricName?: string;
        /**
         * Metric type (metric series). summary and exponential histogram: hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack) only.
         */
        metricDataType?: 'sum' | 'gauge' | 'histogram' | 'summary' | 'exponential histogram';
        /**
         * Markdown series only: the text the tile shows (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
         */
        content?: string;
      }[];
      config?: TileConfig;
    }[];
    /**
     * Dashboard drop-down filters, in the form of HyperDX API v2 (hyperdx and clickstack-cloud profiles).
     */
    filters?: FilterInput[];
  };
}
/**
 * Number formatting of the values; time, table and number series (hyperdx and clickstack-cloud profiles (HyperDX 2026-01-30 and later, ClickStack)).
 */
export interface SeriesNumberFormat {
  /**
   * Output format applied to the number.
   */
  output?: 'currency' | 'percent' | 'byte' | 'time' | 'number' | 'data_rate' | 'throughput' | 'duration';
  /**
   * Number of decimal places: a whole number for HyperDX 2026-08 and ClickStack; HyperDX 2026-01-30 takes and keeps any number.
   */
  mantissa?: number;
  /**
   * Whether to use thousand separators.
   */
  thousandSeparated?: boolean;
  /**
   * Whether to show as average.
   */
  average?: boolean;
  /**
   * Use decimal bytes (1000) vs binary bytes (1024).
   */
  decimalBytes?: boolean;
  /**
   * Multiplication factor.
   */
  factor?: number;
  /**
   * Currency symbol for currency format.
   */
  currencySymbol?: string;
  /**
   * Numeric unit for data, data rate, or throughput formats.
   */
  numericUnit?:
    | 'bytes_iec'
    | 'bytes_si'
    | 'bits_iec'
    | 'bits_si'
    | 'kibibytes'
    | 'kilobytes'
    | 'mebibytes'
    | 'megabytes'
    | 'gibibytes'
    | 'gigabytes'
    | 'tebibytes'
    | 'terabytes'
    | 'pebibytes'
    | 'petabytes'
    | 'packets_sec'
    | 'bytes_sec_iec'
    | 'bytes_sec_si'
    | 'bits_sec_iec'
    | 'bits_sec_si'
    | 'kibibytes_sec'
    | 'kibibits_sec'
    | 'kilobytes_sec'
    | 'kilobits_sec'
    | 'mebibytes_sec'
    | 'mebibits_sec'
    | 'megabytes_sec'
    | 'megabits_sec'
    | 'gibibytes_sec'
    | 'gibibits_sec'
    | 'gigabytes_sec'
    | 'gigabits_sec'
    | 'tebibytes_sec'
    | 'tebibits_sec'
    | 'terabytes_sec'
    | 'terabits_sec'
    | 'pebibytes_sec'
    | 'pebibits_sec'
    | 'petabytes_sec'
    | 'petabits_sec'
    | 'cps'
    | 'ops'
    | 'rps'
    | 'reads_sec'
    | 'wps'
    | 'iops'
    | 'cpm'
    | 'opm'
    | 'rpm_reads'
    | 'wpm';
  /**
   * Custom unit label.
   */
  unit?: string;
}
/**
 * A drop-down filter on a dashboard. Every filter can either broadcast its
 * selected value(s) to every tile (isBroadcastEnabled), expose its selected
 * value as a variable (isVariableEnabled) or both. Typically a filter should
 * do just one of these things.
 *
 */
export interface FilterInput {
  /**
   * Filter type. Must be "QUERY_EXPRESSION".
   */
  type: 'QUERY_EXPRESSION';
  /**
   * Display name for the dashboard filter key
   */
  name: string;
  /**
   * SQL expression used when querying values for this filter, and when applying this dashboard filter to tiles.
   */
  expression: string;
  /**
   * Source ID this dashboard filter key applies to
   */
  sourceId?: string;
  /**
   * Metric type when source is metrics
   */
  sourceMetricType?: 'sum' | 'gauge' | 'histogram' | 'summary' | 'exponential histogram';
  /**
   * Optional WHERE condition to scope which rows this filter key reads values from
   */
  where?: string;
  /**
   * Language of the where condition
   */
  whereLanguage?: 'sql' | 'lucene';
  /**
   * Optional list of source IDs this filter applies to. Omit or provide
   * an empty array to apply the filter to ALL tiles regardless of source.
   * A non-empty array restricts the filter to only tiles whose source ID
   * is in the list; tiles using other sources are not affected by the
   * selected filter value(s). Scopes the broadcast condition only, so a
   * non-empty array is rejected when isBroadcastEnabled is false, and is
   * omitted from responses for such a filter.
   *
   */
  appliesToSourceIds?: string[];
  /**
   * Whether the selected value is applied as a filter condition on every
   * builder tile this filter applies to (see appliesToSourceIds), and every
   * raw sql tile using the $__filters macro. Omitting the field means enabled.
   *
   */
  isBroadcastEnabled?: boolean;
  /**
   * Whether the selected value is exposed to tile queries as a dashboard
   * variable named by variableName. Tiles may reference it as `$variableName`
   * or using the (preferred) `$__filter($<variableName>)` and
   * `$__conditionalAll(<condition>, $<variableName>)` macros.
   *
   */
  isVariableEnabled?: boolean;
  /**
   * Token tiles reference this filter's selected value by, as
   * `$variableName`. Must start with a letter and may contain only
   * letters, numbers, and underscores. Defaults to the display name with
   * whitespace replaced by underscores and remaining illegal characters
   * removed, so a variable-enabled filter whose name derives nothing
   * usable must send this field explicitly. Variable names must be unique
   * across a dashboard's variable-enabled filters. Names the variable
   * only, so the field is rejected when isVariableEnabled is not true, and
   * is omitted from responses for such a filter.
   *
   */
  variableName?: string;
  /**
   * The data source by name (as the service lists it), resolved per environment: use it instead of sourceId.
   */
  source?: string;
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
     * The existing alert's id, as the service assigned it (24 lowercase hex characters on the seed API). Required by the seed API (it cannot create or list alerts); elsewhere optional: without it the alert is matched by spec.name and created when absent.
     */
    id?: string;
  };
  spec: {
    name: string;
    message?: string;
    /**
     * Value the series is compared against.
     */
    threshold: number;
    /**
     * Upper bound for between and not_between.
     */
    thresholdMax?: number;
    /**
     * above and below everywhere; the others (HyperDX 2026-08) on the hyperdx and clickstack-cloud profiles. between and not_between need thresholdMax.
     */
    thresholdType:
      'above' | 'below' | 'above_exclusive' | 'below_or_equal' | 'equal' | 'not_equal' | 'between' | 'not_between';
    /**
     * A number followed by m, h or d, like 5m or 1h. hyperdx and clickstack-cloud take only 1m, 5m, 15m, 30m, 1h, 6h, 12h and 1d.
     */
    interval: string;
    /**
     * tile: the alert watches a dashboard tile (give tile:). search (seed API) or saved_search (hyperdx, clickstack-cloud): a saved search (give savedSearchId on those profiles).
     */
    source: 'tile' | 'search' | 'saved_search';
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
    channel?: AlertChannelSpec;
    /**
     * The saved search a saved_search alert watches.
     */
    savedSearchId?: string;
    /**
     * Every channel the alert notifies (hyperdx): the server replaces an alert on update, so the complete list is sent every time.
     *
     * @minItems 1
     * @maxItems 10
     */
    channels?: [AlertChannelSpec, ...AlertChannelSpec[]];
    /**
     * Group-by key for saved search alerts (hyperdx, clickstack-cloud).
     */
    groupBy?: string;
    /**
     * Fire only after the condition held for this many consecutive windows (hyperdx, clickstack-cloud).
     */
    numConsecutiveWindows?: number;
    /**
     * Offset from the interval boundary, in minutes (hyperdx, clickstack-cloud).
     */
    scheduleOffsetMinutes?: number;
    /**
     * UTC start anchor of the alert windows, an RFC 3339 time like 2026-02-08T10:00:00Z (hyperdx, clickstack-cloud; validate checks the form).
     */
    scheduleStartAt?: string;
  };
}
/**
 * Where notifications go: a webhook, by id or by name, or (clickstack-cloud) an email list. One in channel (seed, clickstack-cloud), each of channels (hyperdx).
 */
export interface AlertChannelSpec {
  /**
   * webhook: a webhook (give webhookId or webhook). email: mail to emailRecipients (clickstack-cloud).
   */
  type: 'webhook' | 'email';
  /**
   * The webhook id the service assigned (24 lowercase hex characters on the seed API; any id elsewhere).
   */
  webhookId?: string;
  /**
   * The webhook by name (hyperdx, clickstack-cloud), resolved per environment instead of webhookId.
   */
  webhook?: string;
  /**
   * The webhook's service as the alert records it, like slack_api (clickstack-cloud: the channel's webhookService).
   */
  webhookService?: string;
  /**
   * The Slack channel a Slack API webhook posts to, like C01ABCDEF23 (clickstack-cloud).
   */
  slackChannelId?: string;
  /**
   * The severity a PagerDuty API webhook sends (clickstack-cloud).
   */
  severity?: 'critical' | 'error' | 'warning' | 'info';
  /**
   * Who an email channel mails (clickstack-cloud). ClickStack takes an empty list (validate warns: it mails no one).
   */
  emailRecipients?: string[];
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

/**
 * Dashboards and alerts with typed parameters, stamped once per TemplateInstance (or per forEach item). References are $(params.NAME), $(self.key) and $(self.name); $$( is a literal $(.
 */
export interface StewardTemplate {
  /**
   * Always steward/v1.
   */
  apiVersion: 'steward/v1';
  kind: 'Template';
  metadata: {
    /**
     * The template's name: instances name it, and it is the first part of every stamped resource's name (<template>/<key>).
     */
    name: string;
    /**
     * Free text for people; never sent.
     */
    description?: string;
  };
  spec: {
    /**
     * The string or enum parameter whose value names each stamp (jvm-runtime/<value>); without it a stamp is named after its instance, and forEach is not allowed.
     */
    key?: string;
    /**
     * The parameters, by name. A parameter without a default is required.
     */
    parameters?: {
      [k: string]:
        | {
            /**
             * string, number, enum (one of values) or list (of strings and numbers).
             */
            type: 'string' | 'number' | 'enum' | 'list';
            /**
             * What the parameter is for; shown in errors about it.
             */
            description?: string;
            /**
             * The allowed values of an enum parameter.
             *
             * @minItems 1
             */
            values?: [string | number, ...(string | number)[]];
            /**
             * The value when an instance gives none; without it the parameter is required.
             */
            default?: string | number | (string | number)[];
          }
        | undefined;
    };
    /**
     * Dashboards to stamp.
     */
    dashboards?: {
      /**
       * Suffix of the stamped dashboard's name (<template>/<key>/<name>); needed when the template holds more than one dashboard.
       */
      name?: string;
      /**
       * The stamped dashboard's metadata, less its name (which the stamp gives).
       */
      metadata?: {
        /**
         * Free text for people; never sent.
         */
        description?: string;
        /**
         * Pin the stamped dashboard to a live id (usually $(params.NAME)).
         */
        id?: string;
      };
      /**
       * A dashboard's spec with parameter references $(params.NAME); checked against the dashboard schema after expansion.
       */
      spec: {};
    }[];
    /**
     * Alerts to stamp; tile.dashboard: $(self.name) names the dashboard of the same stamp.
     */
    alerts?: {
      /**
       * Suffix of the stamped alert's name (<template>/<key>/<name>); needed when the template holds more than one alert.
       */
      name?: string;
      /**
       * The stamped alert's metadata, less its name (which the stamp gives).
       */
      metadata?: {
        /**
         * Free text for people; never sent.
         */
        description?: string;
        /**
         * The live alert's id (usually $(params.NAME)), as an Alert's metadata.id.
         */
        id?: string;
      };
      /**
       * An alert's spec with parameter references $(params.NAME); checked against the alert schema after expansion.
       */
      spec: {};
    }[];
  };
}

/**
 * Stamps a Template with parameter values: once, or once per forEach item (each item's values override spec.parameters).
 */
export interface StewardTemplateInstance {
  /**
   * Always steward/v1.
   */
  apiVersion: 'steward/v1';
  kind: 'TemplateInstance';
  metadata: {
    /**
     * The instance's key, unique among instances; names the stamp when the template has no key.
     */
    name: string;
    /**
     * Free text for people; never sent.
     */
    description?: string;
  };
  spec: {
    /**
     * metadata.name of a Template in this project.
     */
    template: string;
    /**
     * Values for every stamp of this instance.
     */
    parameters?: {
      /**
       * A parameter's value: a string, a number, or a list of strings and numbers.
       */
      [k: string]: string | number | (string | number)[] | undefined;
    };
    /**
     * One stamp per item; an item's values override spec.parameters.
     *
     * @minItems 1
     */
    forEach?: [
      {
        /**
         * A parameter's value: a string, a number, or a list of strings and numbers.
         */
        [k: string]: string | number | (string | number)[] | undefined;
      },
      ...{
        /**
         * A parameter's value: a string, a number, or a list of strings and numbers.
         */
        [k: string]: string | number | (string | number)[] | undefined;
      }[]
    ];
  };
}

