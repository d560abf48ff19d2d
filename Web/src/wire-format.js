// generated from docs/wire/binary-v2.json by Scripts/wire-gen; do not edit
// The constants of protocol v2's binary frames (docs/protocol.md §3.6), read by binary.js.

const freeze = (value) => {
  if (value && typeof value === 'object') Object.values(value).forEach(freeze);
  return Object.freeze(value);
};

export const WIRE = freeze({
  "varint": {"payloadBits": 7, "maxBytes": 10},
  "fixedPoint": {
    "hundredths": {"signed": true, "scale": 100},
    "thousandths": {"signed": false, "scale": 1000},
    "hundredThousandths": {"signed": false, "scale": 100000},
    "tenths": {"signed": false, "scale": 10},
  },
  "colour": {"bytes": 4, "opaque": 255},
  "frameTypes": {"full": 1, "delta": 2, "templatesFollow": 4, "inputFollows": 16, "timeline": 8},
  "bindings": {
    "none": 0,
    "same": 1,
    "axes": {"x": 0, "y": 1},
    "fields": {"x": 0, "y": 1, "alpha": 2},
  },
  "ids": {"min": 1},
  "layerParent": {"root": 0, "likeFlag": 1},
  "insert": {
    "kindBits": 2,
    "kinds": {"new": 0, "like": 1, "move": 2, "template": 3},
  },
  "templates": {"fromDefaults": 0},
  "strings": {"fullFirst": 0},
  "enums": {"kind": ["rect", "text", "icon"], "align": ["left", "center", "right"]},
  "types": {
    "enum": "u8",
    "bool": "u8",
    "selected": "u8",
    "colour": "rgba",
    "string": "v",
    "varint": "v",
    "object": "parts",
  },
  "fields": {
    "maskBits": 23,
    "clearedFollows": 19,
    "list": [
      {"bit": 0, "name": "kind", "type": "enum", "enum": "kind"},
      {"bit": 1, "name": "x", "type": "hundredths", "frame": 0},
      {"bit": 2, "name": "y", "type": "hundredths", "frame": 1},
      {"bit": 3, "name": "width", "type": "hundredths", "frame": 2},
      {"bit": 4, "name": "height", "type": "hundredths", "frame": 3},
      {"bit": 5, "name": "alpha", "type": "thousandths"},
      {"bit": 6, "name": "clips", "type": "bool"},
      {"bit": 7, "name": "fill", "type": "colour", "optional": true},
      {"bit": 8, "name": "radius", "type": "hundredths"},
      {
        "bit": 9,
        "name": "shadow",
        "type": "object",
        "optional": true,
        "parts": [
          {"name": "color", "type": "colour"},
          {"name": "blur", "type": "hundredths"},
          {"name": "x", "type": "hundredths"},
          {"name": "y", "type": "hundredths"},
        ],
      },
      {
        "bit": 10,
        "name": "border",
        "type": "object",
        "optional": true,
        "parts": [
          {"name": "color", "type": "colour"},
          {"name": "width", "type": "hundredths"},
        ],
      },
      {"bit": 11, "name": "text", "type": "string", "optional": true},
      {
        "bit": 12,
        "name": "font",
        "type": "object",
        "optional": true,
        "parts": [
          {"name": "size", "type": "hundredths"},
          {"name": "weight", "type": "varint"},
        ],
      },
      {"bit": 13, "name": "color", "type": "colour", "optional": true},
      {"bit": 14, "name": "align", "type": "enum", "enum": "align", "optional": true},
      {"bit": 15, "name": "icon", "type": "string", "optional": true},
      {"bit": 16, "name": "role", "type": "string", "optional": true},
      {"bit": 17, "name": "name", "type": "string", "optional": true},
      {"bit": 18, "name": "vc", "type": "string", "optional": true},
      {"bit": 20, "name": "standby", "type": "bool"},
      {"bit": 21, "name": "scale", "type": "hundredThousandths"},
      {"bit": 22, "name": "selected", "type": "selected"},
    ],
  },
  "defaults": {
    "layer": {
      "kind": "rect",
      "frame": [0, 0, 0, 0],
      "alpha": 1,
      "scale": 1,
      "clips": false,
      "standby": false,
      "radius": 0,
    },
    "text": {
      "font": {"size": 17, "weight": 400},
      "align": "left",
    },
  },
  "server": {"stringLimit": 8192, "templateLimit": 1024, "templatesNamed": 128},
});
