// Types of layers.mjs for the unit test that reads the folder order.
export declare const CORE_LEVELS: readonly (readonly string[])[];
export declare const CLI_FACE: readonly string[];
export declare function layerViolation(from: string, to: string): string | null;
export declare const layersPlugin: { rules: Record<string, unknown> };
