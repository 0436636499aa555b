/**
 * GENERATED from the vendored OpenAPI files (../shared/contracts/): do not edit. `UPDATE_CONTRACTS=1 npm test`
 * rewrites it (test/emulator/specs.ts); a test fails when it is stale.
 *
 * The request-body schemas the emulator validates with, and every component schema they reach (examples and
 * prose removed):
 * - HYPERDX_SCHEMAS: hyperdx/openapi.2026-08-21.dc29d57f.json (OpenAPI 3.0.0, github.com/hyperdxio/hyperdx at
 *   dc29d57f37cf985814f011d10cf05115880d64c8, MIT): CreateDashboardRequest, UpdateDashboardRequest, CreateAlertRequest, UpdateAlertRequest.
 * - CLICKSTACK_SCHEMAS: clickhouse-cloud/clickhouse_cloud_openapi.2026-07-31.9e4bf41.json (OpenAPI 3.1.2, github.com/ClickHouse/clickhousectl at
 *   9e4bf4138375c03c6855082de4d4ebf38ef6cf1d, Apache-2.0): ClickStackCreateDashboardRequest, ClickStackUpdateDashboardRequest, ClickStackCreateAlertRequest, ClickStackUpdateAlertRequest.
 */

export const HYPERDX_SCHEMAS: Record<string, unknown> = {
 "AggregationFunction": {
  "type": "string",
  "enum": [
   "avg",
   "count",
   "count_distinct",
   "last_value",
   "max",
   "min",
   "quantile",
   "sum",
   "any",
   "none"
  ]
 },
 "Alert": {
  "type": "object",
  "properties": {
   "dashboardId": {
    "type": "string",
    "nullable": true
   },
   "tileId": {
    "type": "string",
    "nullable": true
   },
   "savedSearchId": {
    "type": "string",
    "nullable": true
   },
   "groupBy": {
    "type": "string",
    "nullable": true
   },
   "threshold": {
    "type": "number"
   },
   "thresholdMax": {
    "type": "number",
    "nullable": true
   },
   "interval": {
    "$ref": "#/components/schemas/AlertInterval"
   },
   "scheduleOffsetMinutes": {
    "type": "integer",
    "minimum": 0,
    "nullable": true
   },
   "scheduleStartAt": {
    "type": "string",
    "format": "date-time",
    "nullable": true
   },
   "source": {
    "$ref": "#/components/schemas/AlertSource"
   },
   "thresholdType": {
    "$ref": "#/components/schemas/AlertThresholdType"
   },
   "channel": {
    "$ref": "#/components/schemas/AlertChannel"
   },
   "channels": {
    "$ref": "#/components/schemas/AlertChannels"
   },
   "name": {
    "type": "string",
    "nullable": true
   },
   "message": {
    "type": "string",
    "nullable": true
   },
   "note": {
    "type": "string",
    "nullable": true,
    "minLength": 1,
    "maxLength": 4096
   },
   "numConsecutiveWindows": {
    "type": "integer",
    "minimum": 1,
    "nullable": true
   }
  }
 },
 "AlertChannel": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/AlertChannelWebhook"
   }
  ],
  "discriminator": {
   "propertyName": "type"
  }
 },
 "AlertChannelType": {
  "type": "string",
  "enum": [
   "webhook"
  ]
 },
 "AlertChannelWebhook": {
  "type": "object",
  "required": [
   "type",
   "webhookId"
  ],
  "properties": {
   "type": {
    "$ref": "#/components/schemas/AlertChannelType"
   },
   "webhookId": {
    "type": "string"
   }
  }
 },
 "AlertChannels": {
  "type": "array",
  "minItems": 1,
  "maxItems": 10,
  "items": {
   "$ref": "#/components/schemas/AlertChannel"
  }
 },
 "AlertInterval": {
  "type": "string",
  "enum": [
   "1m",
   "5m",
   "15m",
   "30m",
   "1h",
   "6h",
   "12h",
   "1d"
  ]
 },
 "AlertSource": {
  "type": "string",
  "enum": [
   "saved_search",
   "tile"
  ]
 },
 "AlertThresholdType": {
  "type": "string",
  "enum": [
   "above",
   "below",
   "above_exclusive",
   "below_or_equal",
   "equal",
   "not_equal",
   "between",
   "not_between"
  ]
 },
 "BackgroundChart": {
  "type": "object",
  "required": [
   "type"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "line",
     "area"
    ]
   },
   "color": {
    "$ref": "#/components/schemas/ChartPaletteToken"
   }
  }
 },
 "BarBuilderChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "stacked_bar"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 20,
    "items": {
     "$ref": "#/components/schemas/SelectItem"
    }
   },
   "groupBy": {
    "type": "string",
    "maxLength": 10000
   },
   "asRatio": {
    "type": "boolean",
    "default": false
   },
   "alignDateRangeToGranularity": {
    "type": "boolean",
    "default": true
   },
   "fillNulls": {
    "type": "boolean",
    "default": true
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "seriesLimit": {
    "type": "integer",
    "minimum": 0
   },
   "formulas": {
    "type": "array",
    "maxItems": 10,
    "items": {
     "$ref": "#/components/schemas/Formula"
    }
   },
   "showOperandSeries": {
    "type": "boolean",
    "default": true
   }
  }
 },
 "BarChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/BarBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/BarRawSqlChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "configType",
   "mapping": {
    "sql": "#/components/schemas/BarRawSqlChartConfig"
   }
  }
 },
 "BarRawSqlChartConfig": {
  "allOf": [
   {
    "$ref": "#/components/schemas/RawSqlChartConfigBase"
   },
   {
    "type": "object",
    "required": [
     "displayType"
    ],
    "properties": {
     "displayType": {
      "type": "string",
      "enum": [
       "stacked_bar"
      ]
     },
     "fillNulls": {
      "type": "boolean",
      "default": true
     },
     "alignDateRangeToGranularity": {
      "type": "boolean",
      "default": true
     }
    }
   }
  ]
 },
 "BetweenColorCondition": {
  "type": "object",
  "required": [
   "operator",
   "value",
   "color"
  ],
  "properties": {
   "operator": {
    "type": "string",
    "enum": [
     "between"
    ]
   },
   "value": {
    "type": "array",
    "minItems": 2,
    "maxItems": 2,
    "items": {
     "type": "number"
    }
   },
   "color": {
    "$ref": "#/components/schemas/ChartPaletteToken"
   },
   "label": {
    "type": "string",
    "maxLength": 40
   }
  }
 },
 "CategoricalBarBuilderChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "bar"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 1,
    "items": {
     "$ref": "#/components/schemas/SelectItem"
    }
   },
   "groupBy": {
    "type": "string",
    "maxLength": 10000
   },
   "orderBy": {
    "type": "string",
    "maxLength": 10000
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "limit": {
    "type": "integer",
    "minimum": 0
   }
  }
 },
 "CategoricalBarChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/CategoricalBarBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/CategoricalBarRawSqlChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "configType",
   "mapping": {
    "sql": "#/components/schemas/CategoricalBarRawSqlChartConfig"
   }
  }
 },
 "CategoricalBarRawSqlChartConfig": {
  "allOf": [
   {
    "$ref": "#/components/schemas/RawSqlChartConfigBase"
   },
   {
    "type": "object",
    "required": [
     "displayType"
    ],
    "properties": {
     "displayType": {
      "type": "string",
      "enum": [
       "bar"
      ]
     }
    }
   }
  ]
 },
 "ChartPaletteToken": {
  "type": "string",
  "enum": [
   "chart-blue",
   "chart-orange",
   "chart-red",
   "chart-cyan",
   "chart-green",
   "chart-pink",
   "chart-purple",
   "chart-light-blue",
   "chart-brown",
   "chart-gray",
   "chart-success",
   "chart-warning",
   "chart-error"
  ]
 },
 "CreateAlertRequest": {
  "allOf": [
   {
    "$ref": "#/components/schemas/Alert"
   },
   {
    "type": "object",
    "required": [
     "threshold",
     "interval",
     "thresholdType"
    ]
   }
  ]
 },
 "CreateDashboardRequest": {
  "type": "object",
  "required": [
   "name",
   "tiles"
  ],
  "properties": {
   "name": {
    "type": "string",
    "maxLength": 1024
   },
   "tiles": {
    "type": "array",
    "maxItems": 500,
    "items": {
     "$ref": "#/components/schemas/TileInput"
    }
   },
   "tags": {
    "type": "array",
    "items": {
     "type": "string",
     "maxLength": 32
    },
    "maxItems": 50
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/FilterInput"
    }
   },
   "savedQuery": {
    "type": "string",
    "nullable": true
   },
   "savedQueryLanguage": {
    "$ref": "#/components/schemas/QueryLanguage",
    "nullable": true,
    "default": "lucene"
   },
   "savedFilterValues": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/SavedFilterValue"
    }
   },
   "containers": {
    "type": "array",
    "maxItems": 50,
    "items": {
     "$ref": "#/components/schemas/DashboardContainer"
    }
   }
  }
 },
 "DashboardChartSeries": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/TimeChartSeries"
   },
   {
    "$ref": "#/components/schemas/TableChartSeries"
   },
   {
    "$ref": "#/components/schemas/NumberChartSeries"
   },
   {
    "$ref": "#/components/schemas/SearchChartSeries"
   },
   {
    "$ref": "#/components/schemas/MarkdownChartSeries"
   }
  ],
  "discriminator": {
   "propertyName": "type",
   "mapping": {
    "time": "#/components/schemas/TimeChartSeries",
    "table": "#/components/schemas/TableChartSeries",
    "number": "#/components/schemas/NumberChartSeries",
    "search": "#/components/schemas/SearchChartSeries",
    "markdown": "#/components/schemas/MarkdownChartSeries"
   }
  }
 },
 "DashboardContainer": {
  "type": "object",
  "required": [
   "id",
   "title",
   "collapsed"
  ],
  "properties": {
   "id": {
    "type": "string",
    "minLength": 1,
    "maxLength": 256
   },
   "title": {
    "type": "string",
    "minLength": 1,
    "maxLength": 256
   },
   "collapsed": {
    "type": "boolean"
   },
   "collapsible": {
    "type": "boolean",
    "default": true
   },
   "bordered": {
    "type": "boolean",
    "default": true
   },
   "tabs": {
    "type": "array",
    "maxItems": 20,
    "items": {
     "$ref": "#/components/schemas/DashboardContainerTab"
    }
   }
  }
 },
 "DashboardContainerTab": {
  "type": "object",
  "required": [
   "id",
   "title"
  ],
  "properties": {
   "id": {
    "type": "string",
    "minLength": 1,
    "maxLength": 256
   },
   "title": {
    "type": "string",
    "minLength": 1,
    "maxLength": 256
   }
  }
 },
 "EqualityColorCondition": {
  "type": "object",
  "required": [
   "operator",
   "value",
   "color"
  ],
  "properties": {
   "operator": {
    "type": "string",
    "enum": [
     "eq",
     "neq"
    ]
   },
   "value": {
    "oneOf": [
     {
      "type": "number"
     },
     {
      "type": "string",
      "maxLength": 200
     }
    ]
   },
   "color": {
    "$ref": "#/components/schemas/ChartPaletteToken"
   },
   "label": {
    "type": "string",
    "maxLength": 40
   }
  }
 },
 "EventPatternsChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "event_patterns"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "string",
    "maxLength": 10000,
    "default": ""
   },
   "where": {
    "type": "string",
    "maxLength": 10000,
    "default": ""
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   }
  }
 },
 "Filter": {
  "allOf": [
   {
    "$ref": "#/components/schemas/FilterInput"
   },
   {
    "type": "object",
    "required": [
     "id"
    ],
    "properties": {
     "id": {
      "type": "string"
     }
    }
   }
  ]
 },
 "FilterInput": {
  "type": "object",
  "required": [
   "type",
   "name",
   "expression",
   "sourceId"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "QUERY_EXPRESSION"
    ]
   },
   "name": {
    "type": "string",
    "minLength": 1
   },
   "expression": {
    "type": "string",
    "minLength": 1
   },
   "sourceId": {
    "type": "string"
   },
   "sourceMetricType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ],
    "default": "sql"
   },
   "appliesToSourceIds": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "isBroadcastEnabled": {
    "type": "boolean",
    "default": true
   },
   "isVariableEnabled": {
    "type": "boolean",
    "default": false
   },
   "variableName": {
    "type": "string",
    "maxLength": 64,
    "pattern": "^[a-zA-Z][a-zA-Z0-9_]*$"
   }
  }
 },
 "Formula": {
  "type": "object",
  "required": [
   "expression"
  ],
  "properties": {
   "expression": {
    "type": "string",
    "maxLength": 1024
   },
   "alias": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   }
  }
 },
 "HeatmapChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "heatmap"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 1,
    "items": {
     "$ref": "#/components/schemas/HeatmapSelectItem"
    }
   },
   "where": {
    "type": "string",
    "maxLength": 10000,
    "default": ""
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage",
    "default": "lucene"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   }
  }
 },
 "HeatmapSelectItem": {
  "type": "object",
  "required": [
   "valueExpression"
  ],
  "properties": {
   "valueExpression": {
    "type": "string",
    "minLength": 1,
    "maxLength": 10000
   },
   "countExpression": {
    "type": "string",
    "maxLength": 10000
   },
   "heatmapScaleType": {
    "type": "string",
    "enum": [
     "log",
     "linear"
    ]
   }
  }
 },
 "LineBuilderChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "line"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 20,
    "items": {
     "$ref": "#/components/schemas/SelectItem"
    }
   },
   "groupBy": {
    "type": "string",
    "maxLength": 10000
   },
   "asRatio": {
    "type": "boolean",
    "default": false
   },
   "alignDateRangeToGranularity": {
    "type": "boolean",
    "default": true
   },
   "fillNulls": {
    "type": "boolean",
    "default": true
   },
   "fitYAxisToData": {
    "type": "boolean",
    "default": false
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "compareToPreviousPeriod": {
    "type": "boolean",
    "default": false
   },
   "seriesLimit": {
    "type": "integer",
    "minimum": 0
   },
   "formulas": {
    "type": "array",
    "maxItems": 10,
    "items": {
     "$ref": "#/components/schemas/Formula"
    }
   },
   "showOperandSeries": {
    "type": "boolean",
    "default": true
   }
  }
 },
 "LineChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/LineBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/LineRawSqlChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "configType",
   "mapping": {
    "sql": "#/components/schemas/LineRawSqlChartConfig"
   }
  }
 },
 "LineRawSqlChartConfig": {
  "allOf": [
   {
    "$ref": "#/components/schemas/RawSqlChartConfigBase"
   },
   {
    "type": "object",
    "required": [
     "displayType"
    ],
    "properties": {
     "displayType": {
      "type": "string",
      "enum": [
       "line"
      ]
     },
     "compareToPreviousPeriod": {
      "type": "boolean",
      "default": false
     },
     "fillNulls": {
      "type": "boolean",
      "default": true
     },
     "alignDateRangeToGranularity": {
      "type": "boolean",
      "default": true
     },
     "fitYAxisToData": {
      "type": "boolean",
      "default": false
     }
    }
   }
  ]
 },
 "MarkdownChartConfig": {
  "type": "object",
  "required": [
   "displayType"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "markdown"
    ]
   },
   "markdown": {
    "type": "string",
    "maxLength": 50000
   }
  }
 },
 "MarkdownChartSeries": {
  "type": "object",
  "required": [
   "type",
   "content"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "markdown"
    ]
   },
   "content": {
    "type": "string",
    "maxLength": 100000
   }
  }
 },
 "MetricDataType": {
  "type": "string",
  "enum": [
   "sum",
   "gauge",
   "histogram",
   "summary",
   "exponential histogram"
  ]
 },
 "NumberBuilderChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "number"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 20,
    "items": {
     "$ref": "#/components/schemas/SelectItem"
    }
   },
   "formulas": {
    "type": "array",
    "maxItems": 1,
    "items": {
     "$ref": "#/components/schemas/Formula"
    }
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "color": {
    "$ref": "#/components/schemas/ChartPaletteToken"
   },
   "colorRules": {
    "type": "array",
    "maxItems": 10,
    "items": {
     "$ref": "#/components/schemas/NumberTileColorCondition"
    }
   },
   "backgroundChart": {
    "$ref": "#/components/schemas/BackgroundChart"
   }
  }
 },
 "NumberChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/NumberBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/NumberRawSqlChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "configType",
   "mapping": {
    "sql": "#/components/schemas/NumberRawSqlChartConfig"
   }
  }
 },
 "NumberChartSeries": {
  "type": "object",
  "required": [
   "type",
   "sourceId",
   "aggFn",
   "where",
   "whereLanguage"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "number"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "aggFn": {
    "$ref": "#/components/schemas/AggregationFunction"
   },
   "level": {
    "type": "number",
    "minimum": 0,
    "maximum": 1
   },
   "field": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "metricDataType": {
    "$ref": "#/components/schemas/MetricDataType"
   },
   "metricName": {
    "type": "string"
   }
  }
 },
 "NumberFormat": {
  "type": "object",
  "properties": {
   "output": {
    "$ref": "#/components/schemas/NumberFormatOutput"
   },
   "mantissa": {
    "type": "integer"
   },
   "thousandSeparated": {
    "type": "boolean"
   },
   "average": {
    "type": "boolean"
   },
   "decimalBytes": {
    "type": "boolean"
   },
   "factor": {
    "type": "number"
   },
   "currencySymbol": {
    "type": "string"
   },
   "numericUnit": {
    "type": "string",
    "enum": [
     "bytes_iec",
     "bytes_si",
     "bits_iec",
     "bits_si",
     "kibibytes",
     "kilobytes",
     "mebibytes",
     "megabytes",
     "gibibytes",
     "gigabytes",
     "tebibytes",
     "terabytes",
     "pebibytes",
     "petabytes",
     "packets_sec",
     "bytes_sec_iec",
     "bytes_sec_si",
     "bits_sec_iec",
     "bits_sec_si",
     "kibibytes_sec",
     "kibibits_sec",
     "kilobytes_sec",
     "kilobits_sec",
     "mebibytes_sec",
     "mebibits_sec",
     "megabytes_sec",
     "megabits_sec",
     "gibibytes_sec",
     "gibibits_sec",
     "gigabytes_sec",
     "gigabits_sec",
     "tebibytes_sec",
     "tebibits_sec",
     "terabytes_sec",
     "terabits_sec",
     "pebibytes_sec",
     "pebibits_sec",
     "petabytes_sec",
     "petabits_sec",
     "cps",
     "ops",
     "rps",
     "reads_sec",
     "wps",
     "iops",
     "cpm",
     "opm",
     "rpm_reads",
     "wpm"
    ]
   },
   "unit": {
    "type": "string"
   }
  }
 },
 "NumberFormatOutput": {
  "type": "string",
  "enum": [
   "currency",
   "percent",
   "byte",
   "time",
   "number",
   "data_rate",
   "throughput",
   "duration"
  ]
 },
 "NumberRawSqlChartConfig": {
  "allOf": [
   {
    "$ref": "#/components/schemas/RawSqlChartConfigBase"
   },
   {
    "type": "object",
    "required": [
     "displayType"
    ],
    "properties": {
     "displayType": {
      "type": "string",
      "enum": [
       "number"
      ]
     },
     "color": {
      "$ref": "#/components/schemas/ChartPaletteToken"
     }
    }
   }
  ]
 },
 "NumberTileColorCondition": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/NumericColorCondition"
   },
   {
    "$ref": "#/components/schemas/BetweenColorCondition"
   },
   {
    "$ref": "#/components/schemas/EqualityColorCondition"
   }
  ],
  "discriminator": {
   "propertyName": "operator",
   "mapping": {
    "gt": "#/components/schemas/NumericColorCondition",
    "gte": "#/components/schemas/NumericColorCondition",
    "lt": "#/components/schemas/NumericColorCondition",
    "lte": "#/components/schemas/NumericColorCondition",
    "between": "#/components/schemas/BetweenColorCondition",
    "eq": "#/components/schemas/EqualityColorCondition",
    "neq": "#/components/schemas/EqualityColorCondition"
   }
  }
 },
 "NumericColorCondition": {
  "type": "object",
  "required": [
   "operator",
   "value",
   "color"
  ],
  "properties": {
   "operator": {
    "type": "string",
    "enum": [
     "gt",
     "gte",
     "lt",
     "lte"
    ]
   },
   "value": {
    "type": "number"
   },
   "color": {
    "$ref": "#/components/schemas/ChartPaletteToken"
   },
   "label": {
    "type": "string",
    "maxLength": 40
   }
  }
 },
 "OnClick": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/OnClickSearch"
   },
   {
    "$ref": "#/components/schemas/OnClickDashboard"
   },
   {
    "$ref": "#/components/schemas/OnClickExternal"
   }
  ],
  "discriminator": {
   "propertyName": "type",
   "mapping": {
    "search": "#/components/schemas/OnClickSearch",
    "dashboard": "#/components/schemas/OnClickDashboard",
    "external": "#/components/schemas/OnClickExternal"
   }
  }
 },
 "OnClickDashboard": {
  "type": "object",
  "required": [
   "type",
   "target"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "dashboard"
    ]
   },
   "target": {
    "$ref": "#/components/schemas/OnClickTarget"
   },
   "whereTemplate": {
    "type": "string"
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/OnClickFilterTemplate"
    }
   }
  }
 },
 "OnClickExternal": {
  "type": "object",
  "required": [
   "type",
   "urlTemplate"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "external"
    ]
   },
   "urlTemplate": {
    "type": "string",
    "minLength": 1
   }
  }
 },
 "OnClickFilterTemplate": {
  "type": "object",
  "required": [
   "kind",
   "expression",
   "template"
  ],
  "properties": {
   "kind": {
    "type": "string",
    "enum": [
     "expressionTemplate"
    ]
   },
   "expression": {
    "type": "string",
    "minLength": 1
   },
   "template": {
    "type": "string",
    "minLength": 1
   }
  }
 },
 "OnClickSearch": {
  "type": "object",
  "required": [
   "type",
   "target"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "search"
    ]
   },
   "target": {
    "$ref": "#/components/schemas/OnClickTarget"
   },
   "whereTemplate": {
    "type": "string"
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/OnClickFilterTemplate"
    }
   }
  }
 },
 "OnClickTarget": {
  "oneOf": [
   {
    "type": "object",
    "required": [
     "mode",
     "id"
    ],
    "properties": {
     "mode": {
      "type": "string",
      "enum": [
       "id"
      ]
     },
     "id": {
      "type": "string"
     }
    }
   },
   {
    "type": "object",
    "required": [
     "mode",
     "template"
    ],
    "properties": {
     "mode": {
      "type": "string",
      "enum": [
       "template"
      ]
     },
     "template": {
      "type": "string",
      "minLength": 1
     }
    }
   }
  ],
  "discriminator": {
   "propertyName": "mode"
  }
 },
 "PieBuilderChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "pie"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 1,
    "items": {
     "$ref": "#/components/schemas/SelectItem"
    }
   },
   "groupBy": {
    "type": "string",
    "maxLength": 10000
   },
   "orderBy": {
    "type": "string",
    "maxLength": 10000
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "limit": {
    "type": "integer",
    "minimum": 0
   }
  }
 },
 "PieChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/PieBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/PieRawSqlChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "configType",
   "mapping": {
    "sql": "#/components/schemas/PieRawSqlChartConfig"
   }
  }
 },
 "PieRawSqlChartConfig": {
  "allOf": [
   {
    "$ref": "#/components/schemas/RawSqlChartConfigBase"
   },
   {
    "type": "object",
    "required": [
     "displayType"
    ],
    "properties": {
     "displayType": {
      "type": "string",
      "enum": [
       "pie"
      ]
     }
    }
   }
  ]
 },
 "QuantileLevel": {
  "type": "number",
  "enum": [
   0.5,
   0.9,
   0.95,
   0.99
  ]
 },
 "QueryLanguage": {
  "type": "string",
  "enum": [
   "sql",
   "lucene"
  ]
 },
 "RawSqlChartConfigBase": {
  "type": "object",
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate"
  ],
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string",
    "maxLength": 100000
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   }
  }
 },
 "SavedFilterValue": {
  "type": "object",
  "required": [
   "condition"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "sql"
    ],
    "default": "sql"
   },
   "condition": {
    "type": "string"
   }
  }
 },
 "SearchChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select",
   "whereLanguage"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "search"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "string",
    "maxLength": 10000
   },
   "where": {
    "type": "string",
    "maxLength": 10000,
    "default": ""
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   }
  }
 },
 "SearchChartSeries": {
  "type": "object",
  "required": [
   "type",
   "sourceId",
   "fields",
   "where",
   "whereLanguage"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "search"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "fields": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   }
  }
 },
 "SelectItem": {
  "type": "object",
  "required": [
   "aggFn"
  ],
  "properties": {
   "aggFn": {
    "$ref": "#/components/schemas/AggregationFunction"
   },
   "valueExpression": {
    "type": "string",
    "maxLength": 10000
   },
   "alias": {
    "type": "string",
    "maxLength": 10000
   },
   "level": {
    "$ref": "#/components/schemas/QuantileLevel"
   },
   "where": {
    "type": "string",
    "maxLength": 10000,
    "default": ""
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   },
   "metricName": {
    "type": "string"
   },
   "metricType": {
    "$ref": "#/components/schemas/MetricDataType"
   },
   "periodAggFn": {
    "type": "string",
    "enum": [
     "delta"
    ]
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   }
  }
 },
 "SortOrder": {
  "type": "string",
  "enum": [
   "desc",
   "asc"
  ]
 },
 "TableBuilderChartConfig": {
  "type": "object",
  "required": [
   "displayType",
   "sourceId",
   "select"
  ],
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "table"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "minItems": 1,
    "maxItems": 20,
    "items": {
     "$ref": "#/components/schemas/SelectItem"
    }
   },
   "groupBy": {
    "type": "string",
    "maxLength": 10000
   },
   "having": {
    "type": "string",
    "maxLength": 10000
   },
   "orderBy": {
    "type": "string",
    "maxLength": 10000
   },
   "asRatio": {
    "type": "boolean"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "groupByColumnsOnLeft": {
    "type": "boolean",
    "default": false
   },
   "onClick": {
    "$ref": "#/components/schemas/OnClick"
   },
   "formulas": {
    "type": "array",
    "maxItems": 10,
    "items": {
     "$ref": "#/components/schemas/Formula"
    }
   },
   "showOperandSeries": {
    "type": "boolean",
    "default": true
   }
  }
 },
 "TableChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/TableBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/TableRawSqlChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "configType",
   "mapping": {
    "sql": "#/components/schemas/TableRawSqlChartConfig"
   }
  }
 },
 "TableChartSeries": {
  "type": "object",
  "required": [
   "type",
   "sourceId",
   "aggFn",
   "where",
   "whereLanguage",
   "groupBy"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "table"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "aggFn": {
    "$ref": "#/components/schemas/AggregationFunction"
   },
   "level": {
    "type": "number",
    "minimum": 0,
    "maximum": 1
   },
   "field": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   },
   "groupBy": {
    "type": "array",
    "items": {
     "type": "string"
    },
    "maxItems": 10
   },
   "sortOrder": {
    "$ref": "#/components/schemas/SortOrder"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "metricDataType": {
    "$ref": "#/components/schemas/MetricDataType"
   },
   "metricName": {
    "type": "string"
   }
  }
 },
 "TableRawSqlChartConfig": {
  "allOf": [
   {
    "$ref": "#/components/schemas/RawSqlChartConfigBase"
   },
   {
    "type": "object",
    "required": [
     "displayType"
    ],
    "properties": {
     "displayType": {
      "type": "string",
      "enum": [
       "table"
      ]
     },
     "onClick": {
      "$ref": "#/components/schemas/OnClick"
     }
    }
   }
  ]
 },
 "TileBase": {
  "type": "object",
  "required": [
   "name",
   "x",
   "y",
   "w",
   "h"
  ],
  "properties": {
   "name": {
    "type": "string"
   },
   "x": {
    "type": "integer",
    "minimum": 0,
    "maximum": 23
   },
   "y": {
    "type": "integer",
    "minimum": 0
   },
   "w": {
    "type": "integer",
    "minimum": 1,
    "maximum": 24
   },
   "h": {
    "type": "integer",
    "minimum": 1
   },
   "config": {
    "$ref": "#/components/schemas/TileConfig"
   },
   "containerId": {
    "type": "string",
    "minLength": 1,
    "maxLength": 256
   },
   "tabId": {
    "type": "string",
    "minLength": 1,
    "maxLength": 256
   }
  }
 },
 "TileConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/LineChartConfig"
   },
   {
    "$ref": "#/components/schemas/BarChartConfig"
   },
   {
    "$ref": "#/components/schemas/TableChartConfig"
   },
   {
    "$ref": "#/components/schemas/NumberChartConfig"
   },
   {
    "$ref": "#/components/schemas/PieChartConfig"
   },
   {
    "$ref": "#/components/schemas/CategoricalBarChartConfig"
   },
   {
    "$ref": "#/components/schemas/HeatmapChartConfig"
   },
   {
    "$ref": "#/components/schemas/SearchChartConfig"
   },
   {
    "$ref": "#/components/schemas/EventPatternsChartConfig"
   },
   {
    "$ref": "#/components/schemas/MarkdownChartConfig"
   }
  ],
  "discriminator": {
   "propertyName": "displayType",
   "mapping": {
    "line": "#/components/schemas/LineChartConfig",
    "stacked_bar": "#/components/schemas/BarChartConfig",
    "table": "#/components/schemas/TableChartConfig",
    "number": "#/components/schemas/NumberChartConfig",
    "pie": "#/components/schemas/PieChartConfig",
    "bar": "#/components/schemas/CategoricalBarChartConfig",
    "heatmap": "#/components/schemas/HeatmapChartConfig",
    "search": "#/components/schemas/SearchChartConfig",
    "event_patterns": "#/components/schemas/EventPatternsChartConfig",
    "markdown": "#/components/schemas/MarkdownChartConfig"
   }
  }
 },
 "TileInput": {
  "allOf": [
   {
    "$ref": "#/components/schemas/TileBase"
   },
   {
    "type": "object",
    "properties": {
     "id": {
      "type": "string",
      "maxLength": 36
     },
     "asRatio": {
      "type": "boolean",
      "deprecated": true
     },
     "series": {
      "type": "array",
      "minItems": 1,
      "deprecated": true,
      "items": {
       "$ref": "#/components/schemas/DashboardChartSeries"
      }
     }
    }
   }
  ]
 },
 "TimeChartSeries": {
  "type": "object",
  "required": [
   "type",
   "sourceId",
   "aggFn",
   "where",
   "whereLanguage",
   "groupBy"
  ],
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "time"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "aggFn": {
    "$ref": "#/components/schemas/AggregationFunction"
   },
   "level": {
    "type": "number",
    "minimum": 0,
    "maximum": 1
   },
   "field": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "$ref": "#/components/schemas/QueryLanguage"
   },
   "groupBy": {
    "type": "array",
    "items": {
     "type": "string"
    },
    "maxItems": 10
   },
   "numberFormat": {
    "$ref": "#/components/schemas/NumberFormat"
   },
   "metricDataType": {
    "$ref": "#/components/schemas/MetricDataType"
   },
   "metricName": {
    "type": "string"
   },
   "displayType": {
    "$ref": "#/components/schemas/TimeSeriesDisplayType"
   }
  }
 },
 "TimeSeriesDisplayType": {
  "type": "string",
  "enum": [
   "stacked_bar",
   "line"
  ]
 },
 "UpdateAlertRequest": {
  "allOf": [
   {
    "$ref": "#/components/schemas/Alert"
   },
   {
    "type": "object",
    "required": [
     "threshold",
     "interval",
     "thresholdType"
    ]
   }
  ]
 },
 "UpdateDashboardRequest": {
  "type": "object",
  "required": [
   "name",
   "tiles"
  ],
  "properties": {
   "name": {
    "type": "string",
    "maxLength": 1024
   },
   "tiles": {
    "type": "array",
    "maxItems": 500,
    "items": {
     "$ref": "#/components/schemas/TileInput"
    }
   },
   "tags": {
    "type": "array",
    "items": {
     "type": "string",
     "maxLength": 32
    },
    "maxItems": 50
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/Filter"
    }
   },
   "savedQuery": {
    "type": "string",
    "nullable": true
   },
   "savedQueryLanguage": {
    "$ref": "#/components/schemas/QueryLanguage",
    "nullable": true,
    "default": "lucene"
   },
   "savedFilterValues": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/SavedFilterValue"
    }
   },
   "containers": {
    "type": "array",
    "maxItems": 50,
    "items": {
     "$ref": "#/components/schemas/DashboardContainer"
    }
   }
  }
 }
};

export const CLICKSTACK_SCHEMAS: Record<string, unknown> = {
 "ClickStackAlertChannel": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackAlertChannelEmail"
   },
   {
    "$ref": "#/components/schemas/ClickStackAlertChannelWebhook"
   }
  ]
 },
 "ClickStackAlertChannelEmail": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "webhook",
     "email"
    ]
   },
   "emailRecipients": {
    "type": "array",
    "items": {
     "type": "string"
    }
   }
  },
  "required": [
   "type",
   "emailRecipients"
  ]
 },
 "ClickStackAlertChannelWebhook": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "webhook",
     "email"
    ]
   },
   "webhookId": {
    "type": "string"
   },
   "webhookService": {
    "type": [
     "string",
     "null"
    ]
   },
   "slackChannelId": {
    "type": [
     "string",
     "null"
    ]
   },
   "severity": {
    "type": [
     "string",
     "null"
    ],
    "enum": [
     "critical",
     "error",
     "warning",
     "info"
    ]
   }
  },
  "required": [
   "type",
   "webhookId"
  ]
 },
 "ClickStackBackgroundChart": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "line",
     "area"
    ]
   },
   "color": {
    "type": "string",
    "enum": [
     "chart-blue",
     "chart-orange",
     "chart-red",
     "chart-cyan",
     "chart-green",
     "chart-pink",
     "chart-purple",
     "chart-light-blue",
     "chart-brown",
     "chart-gray",
     "chart-success",
     "chart-warning",
     "chart-error"
    ]
   }
  },
  "required": [
   "type"
  ]
 },
 "ClickStackBarBuilderChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "stacked_bar"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSelectItem"
    }
   },
   "groupBy": {
    "type": "string"
   },
   "asRatio": {
    "type": "boolean"
   },
   "alignDateRangeToGranularity": {
    "type": "boolean"
   },
   "fillNulls": {
    "type": "boolean"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackBarChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackBarBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackBarRawSqlChartConfig"
   }
  ]
 },
 "ClickStackBarRawSqlChartConfig": {
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "stacked_bar"
    ]
   },
   "fillNulls": {
    "type": "boolean"
   },
   "alignDateRangeToGranularity": {
    "type": "boolean"
   }
  },
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate",
   "displayType"
  ]
 },
 "ClickStackBetweenColorCondition": {
  "properties": {
   "operator": {
    "type": "string",
    "enum": [
     "between"
    ]
   },
   "value": {
    "type": "array",
    "items": {
     "type": "number"
    }
   },
   "color": {
    "type": "string",
    "enum": [
     "chart-blue",
     "chart-orange",
     "chart-red",
     "chart-cyan",
     "chart-green",
     "chart-pink",
     "chart-purple",
     "chart-light-blue",
     "chart-brown",
     "chart-gray",
     "chart-success",
     "chart-warning",
     "chart-error"
    ]
   },
   "label": {
    "type": "string"
   }
  },
  "required": [
   "operator",
   "value",
   "color"
  ]
 },
 "ClickStackCategoricalBarBuilderChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "bar"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSelectItem"
    }
   },
   "groupBy": {
    "type": "string"
   },
   "orderBy": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "limit": {
    "type": "integer"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackCategoricalBarChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackCategoricalBarBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackCategoricalBarRawSqlChartConfig"
   }
  ]
 },
 "ClickStackCategoricalBarRawSqlChartConfig": {
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "bar"
    ]
   }
  },
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate",
   "displayType"
  ]
 },
 "ClickStackCreateAlertRequest": {
  "properties": {
   "dashboardId": {
    "type": [
     "string",
     "null"
    ]
   },
   "tileId": {
    "type": [
     "string",
     "null"
    ]
   },
   "savedSearchId": {
    "type": [
     "string",
     "null"
    ]
   },
   "groupBy": {
    "type": [
     "string",
     "null"
    ]
   },
   "threshold": {
    "type": "number"
   },
   "thresholdMax": {
    "type": [
     "number",
     "null"
    ]
   },
   "interval": {
    "type": "string",
    "enum": [
     "1m",
     "5m",
     "15m",
     "30m",
     "1h",
     "6h",
     "12h",
     "1d"
    ]
   },
   "scheduleOffsetMinutes": {
    "type": [
     "integer",
     "null"
    ]
   },
   "scheduleStartAt": {
    "type": [
     "string",
     "null"
    ],
    "format": "date-time"
   },
   "source": {
    "type": "string",
    "enum": [
     "saved_search",
     "tile"
    ]
   },
   "thresholdType": {
    "type": "string",
    "enum": [
     "above",
     "below",
     "above_exclusive",
     "below_or_equal",
     "equal",
     "not_equal",
     "between",
     "not_between"
    ]
   },
   "channel": {
    "$ref": "#/components/schemas/ClickStackAlertChannel"
   },
   "name": {
    "type": [
     "string",
     "null"
    ]
   },
   "message": {
    "type": [
     "string",
     "null"
    ]
   },
   "note": {
    "type": [
     "string",
     "null"
    ]
   },
   "numConsecutiveWindows": {
    "type": [
     "integer",
     "null"
    ]
   }
  }
 },
 "ClickStackCreateDashboardRequest": {
  "properties": {
   "name": {
    "type": "string"
   },
   "tiles": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackTileInput"
    }
   },
   "tags": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackFilterInput"
    }
   },
   "savedQuery": {
    "type": [
     "string",
     "null"
    ]
   },
   "savedQueryLanguage": {
    "type": [
     "string",
     "null"
    ],
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "savedFilterValues": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSavedFilterValue"
    }
   },
   "containers": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackDashboardContainer"
    }
   }
  },
  "required": [
   "name",
   "tiles"
  ]
 },
 "ClickStackDashboardChartSeries": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackTimeChartSeries"
   },
   {
    "$ref": "#/components/schemas/ClickStackTableChartSeries"
   },
   {
    "$ref": "#/components/schemas/ClickStackNumberChartSeries"
   },
   {
    "$ref": "#/components/schemas/ClickStackSearchChartSeries"
   },
   {
    "$ref": "#/components/schemas/ClickStackMarkdownChartSeries"
   }
  ]
 },
 "ClickStackDashboardContainer": {
  "properties": {
   "id": {
    "type": "string"
   },
   "title": {
    "type": "string"
   },
   "collapsed": {
    "type": "boolean"
   },
   "collapsible": {
    "type": "boolean"
   },
   "bordered": {
    "type": "boolean"
   },
   "tabs": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackDashboardContainerTab"
    }
   }
  },
  "required": [
   "id",
   "title",
   "collapsed"
  ]
 },
 "ClickStackDashboardContainerTab": {
  "properties": {
   "id": {
    "type": "string"
   },
   "title": {
    "type": "string"
   }
  },
  "required": [
   "id",
   "title"
  ]
 },
 "ClickStackEqualityColorCondition": {
  "properties": {
   "operator": {
    "type": "string",
    "enum": [
     "eq",
     "neq"
    ]
   },
   "value": {
    "oneOf": [
     {
      "type": "number"
     },
     {
      "type": "string"
     }
    ]
   },
   "color": {
    "type": "string",
    "enum": [
     "chart-blue",
     "chart-orange",
     "chart-red",
     "chart-cyan",
     "chart-green",
     "chart-pink",
     "chart-purple",
     "chart-light-blue",
     "chart-brown",
     "chart-gray",
     "chart-success",
     "chart-warning",
     "chart-error"
    ]
   },
   "label": {
    "type": "string"
   }
  },
  "required": [
   "operator",
   "value",
   "color"
  ]
 },
 "ClickStackEventPatternsChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "event_patterns"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   }
  },
  "required": [
   "displayType",
   "sourceId"
  ]
 },
 "ClickStackFilter": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "QUERY_EXPRESSION"
    ]
   },
   "name": {
    "type": "string"
   },
   "expression": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "sourceMetricType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "appliesToSourceIds": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "id": {
    "type": "string"
   }
  },
  "required": [
   "type",
   "name",
   "expression",
   "sourceId",
   "id"
  ]
 },
 "ClickStackFilterInput": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "QUERY_EXPRESSION"
    ]
   },
   "name": {
    "type": "string"
   },
   "expression": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "sourceMetricType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "appliesToSourceIds": {
    "type": "array",
    "items": {
     "type": "string"
    }
   }
  },
  "required": [
   "type",
   "name",
   "expression",
   "sourceId"
  ]
 },
 "ClickStackHeatmapChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "heatmap"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackHeatmapSelectItem"
    }
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackHeatmapSelectItem": {
  "properties": {
   "valueExpression": {
    "type": "string"
   },
   "countExpression": {
    "type": "string"
   },
   "heatmapScaleType": {
    "type": "string",
    "enum": [
     "log",
     "linear"
    ]
   }
  },
  "required": [
   "valueExpression"
  ]
 },
 "ClickStackLineBuilderChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "line"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSelectItem"
    }
   },
   "groupBy": {
    "type": "string"
   },
   "asRatio": {
    "type": "boolean"
   },
   "alignDateRangeToGranularity": {
    "type": "boolean"
   },
   "fillNulls": {
    "type": "boolean"
   },
   "fitYAxisToData": {
    "type": "boolean"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "compareToPreviousPeriod": {
    "type": "boolean"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackLineChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackLineBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackLineRawSqlChartConfig"
   }
  ]
 },
 "ClickStackLineRawSqlChartConfig": {
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "line"
    ]
   },
   "compareToPreviousPeriod": {
    "type": "boolean"
   },
   "fillNulls": {
    "type": "boolean"
   },
   "alignDateRangeToGranularity": {
    "type": "boolean"
   },
   "fitYAxisToData": {
    "type": "boolean"
   }
  },
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate",
   "displayType"
  ]
 },
 "ClickStackMarkdownChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "markdown"
    ]
   },
   "markdown": {
    "type": "string"
   }
  },
  "required": [
   "displayType"
  ]
 },
 "ClickStackMarkdownChartSeries": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "markdown"
    ]
   },
   "content": {
    "type": "string"
   }
  },
  "required": [
   "type",
   "content"
  ]
 },
 "ClickStackNumberBuilderChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "number"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSelectItem"
    }
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "color": {
    "type": "string",
    "enum": [
     "chart-blue",
     "chart-orange",
     "chart-red",
     "chart-cyan",
     "chart-green",
     "chart-pink",
     "chart-purple",
     "chart-light-blue",
     "chart-brown",
     "chart-gray",
     "chart-success",
     "chart-warning",
     "chart-error"
    ]
   },
   "colorRules": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackNumberTileColorCondition"
    }
   },
   "backgroundChart": {
    "$ref": "#/components/schemas/ClickStackBackgroundChart"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackNumberChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackNumberBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackNumberRawSqlChartConfig"
   }
  ]
 },
 "ClickStackNumberChartSeries": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "number"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "aggFn": {
    "type": "string",
    "enum": [
     "avg",
     "count",
     "count_distinct",
     "last_value",
     "max",
     "min",
     "quantile",
     "sum",
     "any",
     "none"
    ]
   },
   "level": {
    "type": "number"
   },
   "field": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "metricDataType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "metricName": {
    "type": "string"
   }
  },
  "required": [
   "type",
   "sourceId",
   "aggFn",
   "where",
   "whereLanguage"
  ]
 },
 "ClickStackNumberFormat": {
  "properties": {
   "output": {
    "type": "string",
    "enum": [
     "currency",
     "percent",
     "byte",
     "time",
     "number",
     "data_rate",
     "throughput",
     "duration"
    ]
   },
   "mantissa": {
    "type": "integer"
   },
   "thousandSeparated": {
    "type": "boolean"
   },
   "average": {
    "type": "boolean"
   },
   "decimalBytes": {
    "type": "boolean"
   },
   "factor": {
    "type": "number"
   },
   "currencySymbol": {
    "type": "string"
   },
   "numericUnit": {
    "type": "string",
    "enum": [
     "bytes_iec",
     "bytes_si",
     "bits_iec",
     "bits_si",
     "kibibytes",
     "kilobytes",
     "mebibytes",
     "megabytes",
     "gibibytes",
     "gigabytes",
     "tebibytes",
     "terabytes",
     "pebibytes",
     "petabytes",
     "packets_sec",
     "bytes_sec_iec",
     "bytes_sec_si",
     "bits_sec_iec",
     "bits_sec_si",
     "kibibytes_sec",
     "kibibits_sec",
     "kilobytes_sec",
     "kilobits_sec",
     "mebibytes_sec",
     "mebibits_sec",
     "megabytes_sec",
     "megabits_sec",
     "gibibytes_sec",
     "gibibits_sec",
     "gigabytes_sec",
     "gigabits_sec",
     "tebibytes_sec",
     "tebibits_sec",
     "terabytes_sec",
     "terabits_sec",
     "pebibytes_sec",
     "pebibits_sec",
     "petabytes_sec",
     "petabits_sec",
     "cps",
     "ops",
     "rps",
     "reads_sec",
     "wps",
     "iops",
     "cpm",
     "opm",
     "rpm_reads",
     "wpm"
    ]
   },
   "unit": {
    "type": "string"
   }
  }
 },
 "ClickStackNumberRawSqlChartConfig": {
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "number"
    ]
   },
   "color": {
    "type": "string",
    "enum": [
     "chart-blue",
     "chart-orange",
     "chart-red",
     "chart-cyan",
     "chart-green",
     "chart-pink",
     "chart-purple",
     "chart-light-blue",
     "chart-brown",
     "chart-gray",
     "chart-success",
     "chart-warning",
     "chart-error"
    ]
   }
  },
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate",
   "displayType"
  ]
 },
 "ClickStackNumberTileColorCondition": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackNumericColorCondition"
   },
   {
    "$ref": "#/components/schemas/ClickStackBetweenColorCondition"
   },
   {
    "$ref": "#/components/schemas/ClickStackEqualityColorCondition"
   }
  ]
 },
 "ClickStackNumericColorCondition": {
  "properties": {
   "operator": {
    "type": "string",
    "enum": [
     "gt",
     "gte",
     "lt",
     "lte"
    ]
   },
   "value": {
    "type": "number"
   },
   "color": {
    "type": "string",
    "enum": [
     "chart-blue",
     "chart-orange",
     "chart-red",
     "chart-cyan",
     "chart-green",
     "chart-pink",
     "chart-purple",
     "chart-light-blue",
     "chart-brown",
     "chart-gray",
     "chart-success",
     "chart-warning",
     "chart-error"
    ]
   },
   "label": {
    "type": "string"
   }
  },
  "required": [
   "operator",
   "value",
   "color"
  ]
 },
 "ClickStackOnClick": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackOnClickSearch"
   },
   {
    "$ref": "#/components/schemas/ClickStackOnClickDashboard"
   },
   {
    "$ref": "#/components/schemas/ClickStackOnClickExternal"
   }
  ]
 },
 "ClickStackOnClickDashboard": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "dashboard"
    ]
   },
   "target": {
    "$ref": "#/components/schemas/ClickStackOnClickTarget"
   },
   "whereTemplate": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackOnClickFilterTemplate"
    }
   }
  },
  "required": [
   "type",
   "target"
  ]
 },
 "ClickStackOnClickExternal": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "external"
    ]
   },
   "urlTemplate": {
    "type": "string"
   }
  },
  "required": [
   "type",
   "urlTemplate"
  ]
 },
 "ClickStackOnClickFilterTemplate": {
  "properties": {
   "kind": {
    "type": "string",
    "enum": [
     "expressionTemplate"
    ]
   },
   "expression": {
    "type": "string"
   },
   "template": {
    "type": "string"
   }
  },
  "required": [
   "kind",
   "expression",
   "template"
  ]
 },
 "ClickStackOnClickSearch": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "search"
    ]
   },
   "target": {
    "$ref": "#/components/schemas/ClickStackOnClickTarget"
   },
   "whereTemplate": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackOnClickFilterTemplate"
    }
   }
  },
  "required": [
   "type",
   "target"
  ]
 },
 "ClickStackOnClickTarget": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackOnClickTargetIdVariant"
   },
   {
    "$ref": "#/components/schemas/ClickStackOnClickTargetTemplateVariant"
   }
  ]
 },
 "ClickStackOnClickTargetIdVariant": {
  "properties": {
   "mode": {
    "type": "string",
    "enum": [
     "id"
    ]
   },
   "id": {
    "type": "string"
   }
  },
  "required": [
   "mode",
   "id"
  ]
 },
 "ClickStackOnClickTargetTemplateVariant": {
  "properties": {
   "mode": {
    "type": "string",
    "enum": [
     "template"
    ]
   },
   "template": {
    "type": "string"
   }
  },
  "required": [
   "mode",
   "template"
  ]
 },
 "ClickStackPieBuilderChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "pie"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSelectItem"
    }
   },
   "groupBy": {
    "type": "string"
   },
   "orderBy": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "limit": {
    "type": "integer"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackPieChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackPieBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackPieRawSqlChartConfig"
   }
  ]
 },
 "ClickStackPieRawSqlChartConfig": {
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "pie"
    ]
   }
  },
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate",
   "displayType"
  ]
 },
 "ClickStackSavedFilterValue": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "condition": {
    "type": "string"
   }
  },
  "required": [
   "condition"
  ]
 },
 "ClickStackSearchChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "search"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select",
   "whereLanguage"
  ]
 },
 "ClickStackSearchChartSeries": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "search"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "fields": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   }
  },
  "required": [
   "type",
   "sourceId",
   "fields",
   "where",
   "whereLanguage"
  ]
 },
 "ClickStackSelectItem": {
  "properties": {
   "aggFn": {
    "type": "string",
    "enum": [
     "avg",
     "count",
     "count_distinct",
     "last_value",
     "max",
     "min",
     "quantile",
     "sum",
     "any",
     "none"
    ]
   },
   "valueExpression": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "level": {
    "type": "number",
    "enum": [
     "0.5",
     "0.9",
     "0.95",
     "0.99"
    ]
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "metricName": {
    "type": "string"
   },
   "metricType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "periodAggFn": {
    "type": "string",
    "enum": [
     "delta"
    ]
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   }
  },
  "required": [
   "aggFn"
  ]
 },
 "ClickStackTableBuilderChartConfig": {
  "properties": {
   "displayType": {
    "type": "string",
    "enum": [
     "table"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "select": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSelectItem"
    }
   },
   "groupBy": {
    "type": "string"
   },
   "having": {
    "type": "string"
   },
   "orderBy": {
    "type": "string"
   },
   "asRatio": {
    "type": "boolean"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "groupByColumnsOnLeft": {
    "type": "boolean"
   },
   "onClick": {
    "$ref": "#/components/schemas/ClickStackOnClick"
   }
  },
  "required": [
   "displayType",
   "sourceId",
   "select"
  ]
 },
 "ClickStackTableChartConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackTableBuilderChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackTableRawSqlChartConfig"
   }
  ]
 },
 "ClickStackTableChartSeries": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "table"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "aggFn": {
    "type": "string",
    "enum": [
     "avg",
     "count",
     "count_distinct",
     "last_value",
     "max",
     "min",
     "quantile",
     "sum",
     "any",
     "none"
    ]
   },
   "level": {
    "type": "number"
   },
   "field": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "groupBy": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "sortOrder": {
    "type": "string",
    "enum": [
     "desc",
     "asc"
    ]
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "metricDataType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "metricName": {
    "type": "string"
   }
  },
  "required": [
   "type",
   "sourceId",
   "aggFn",
   "where",
   "whereLanguage",
   "groupBy"
  ]
 },
 "ClickStackTableRawSqlChartConfig": {
  "properties": {
   "configType": {
    "type": "string",
    "enum": [
     "sql"
    ]
   },
   "connectionId": {
    "type": "string"
   },
   "sqlTemplate": {
    "type": "string"
   },
   "sourceId": {
    "type": "string"
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "table"
    ]
   },
   "onClick": {
    "$ref": "#/components/schemas/ClickStackOnClick"
   }
  },
  "required": [
   "configType",
   "connectionId",
   "sqlTemplate",
   "displayType"
  ]
 },
 "ClickStackTileConfig": {
  "oneOf": [
   {
    "$ref": "#/components/schemas/ClickStackLineChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackBarChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackTableChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackNumberChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackPieChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackCategoricalBarChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackHeatmapChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackSearchChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackEventPatternsChartConfig"
   },
   {
    "$ref": "#/components/schemas/ClickStackMarkdownChartConfig"
   }
  ]
 },
 "ClickStackTileInput": {
  "properties": {
   "name": {
    "type": "string"
   },
   "x": {
    "type": "integer"
   },
   "y": {
    "type": "integer"
   },
   "w": {
    "type": "integer"
   },
   "h": {
    "type": "integer"
   },
   "config": {
    "$ref": "#/components/schemas/ClickStackTileConfig"
   },
   "containerId": {
    "type": "string"
   },
   "tabId": {
    "type": "string"
   },
   "id": {
    "type": "string"
   },
   "asRatio": {
    "type": "boolean",
    "deprecated": true
   },
   "series": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackDashboardChartSeries"
    },
    "deprecated": true
   }
  },
  "required": [
   "name",
   "x",
   "y",
   "w",
   "h"
  ]
 },
 "ClickStackTimeChartSeries": {
  "properties": {
   "type": {
    "type": "string",
    "enum": [
     "time"
    ]
   },
   "sourceId": {
    "type": "string"
   },
   "aggFn": {
    "type": "string",
    "enum": [
     "avg",
     "count",
     "count_distinct",
     "last_value",
     "max",
     "min",
     "quantile",
     "sum",
     "any",
     "none"
    ]
   },
   "level": {
    "type": "number"
   },
   "field": {
    "type": "string"
   },
   "alias": {
    "type": "string"
   },
   "where": {
    "type": "string"
   },
   "whereLanguage": {
    "type": "string",
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "groupBy": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "numberFormat": {
    "$ref": "#/components/schemas/ClickStackNumberFormat"
   },
   "metricDataType": {
    "type": "string",
    "enum": [
     "sum",
     "gauge",
     "histogram",
     "summary",
     "exponential histogram"
    ]
   },
   "metricName": {
    "type": "string"
   },
   "displayType": {
    "type": "string",
    "enum": [
     "stacked_bar",
     "line"
    ]
   }
  },
  "required": [
   "type",
   "sourceId",
   "aggFn",
   "where",
   "whereLanguage",
   "groupBy"
  ]
 },
 "ClickStackUpdateAlertRequest": {
  "properties": {
   "dashboardId": {
    "type": [
     "string",
     "null"
    ]
   },
   "tileId": {
    "type": [
     "string",
     "null"
    ]
   },
   "savedSearchId": {
    "type": [
     "string",
     "null"
    ]
   },
   "groupBy": {
    "type": [
     "string",
     "null"
    ]
   },
   "threshold": {
    "type": "number"
   },
   "thresholdMax": {
    "type": [
     "number",
     "null"
    ]
   },
   "interval": {
    "type": "string",
    "enum": [
     "1m",
     "5m",
     "15m",
     "30m",
     "1h",
     "6h",
     "12h",
     "1d"
    ]
   },
   "scheduleOffsetMinutes": {
    "type": [
     "integer",
     "null"
    ]
   },
   "scheduleStartAt": {
    "type": [
     "string",
     "null"
    ],
    "format": "date-time"
   },
   "source": {
    "type": "string",
    "enum": [
     "saved_search",
     "tile"
    ]
   },
   "thresholdType": {
    "type": "string",
    "enum": [
     "above",
     "below",
     "above_exclusive",
     "below_or_equal",
     "equal",
     "not_equal",
     "between",
     "not_between"
    ]
   },
   "channel": {
    "$ref": "#/components/schemas/ClickStackAlertChannel"
   },
   "name": {
    "type": [
     "string",
     "null"
    ]
   },
   "message": {
    "type": [
     "string",
     "null"
    ]
   },
   "note": {
    "type": [
     "string",
     "null"
    ]
   },
   "numConsecutiveWindows": {
    "type": [
     "integer",
     "null"
    ]
   }
  }
 },
 "ClickStackUpdateDashboardRequest": {
  "properties": {
   "name": {
    "type": "string"
   },
   "tiles": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackTileInput"
    }
   },
   "tags": {
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "filters": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackFilter"
    }
   },
   "savedQuery": {
    "type": [
     "string",
     "null"
    ]
   },
   "savedQueryLanguage": {
    "type": [
     "string",
     "null"
    ],
    "enum": [
     "sql",
     "lucene"
    ]
   },
   "savedFilterValues": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackSavedFilterValue"
    }
   },
   "containers": {
    "type": "array",
    "items": {
     "$ref": "#/components/schemas/ClickStackDashboardContainer"
    }
   }
  },
  "required": [
   "name",
   "tiles"
  ]
 }
};
