/**
 * The signature checks the TesteCF test inbox page offers to copy (issue 27): JavaScript (Node),
 * Python and C#, each the receiver guide's scheme (docs/webhooks/receiver-guide.md): `t` once and
 * every `v1` read from `Svc-Signature` without a map, `t` within 5 minutes, HMAC-SHA256 of
 * `<t>.<raw body>` keyed with the whole `whsec_…` secret, compared in constant time. The JavaScript
 * and Python ones are run against a real delivery by `webhook-snippets.test.ts`.
 */

export const WEBHOOK_SNIPPET_JAVASCRIPT = `const crypto = require('node:crypto');

// rawBody: los bytes del cuerpo tal como llegaron (un Buffer), antes de leerlo como JSON.
// secret: el secreto del endpoint (whsec_...). header: la cabecera Svc-Signature.
function verifySvcSignature(header, rawBody, secret, toleranceSeconds = 300) {
  if (!header) return false;
  const timestamps = [];
  const signatures = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamps.push(value);
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamps.length !== 1 || !/^\\d{1,12}$/.test(timestamps[0])) return false;
  const timestamp = timestamps[0];
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > toleranceSeconds) return false;
  const expected = crypto.createHmac('sha256', secret).update(\`\${timestamp}.\`).update(rawBody).digest();
  return signatures.some(
    (signature) =>
      /^[0-9a-f]{64}$/i.test(signature) && crypto.timingSafeEqual(Buffer.from(signature, 'hex'), expected),
  );
}
`;

export const WEBHOOK_SNIPPET_PYTHON = `import hashlib
import hmac
import re
import time


def verify_svc_signature(header, raw_body, secret, tolerance_seconds=300):
    """raw_body: los bytes del cuerpo tal como llegaron, antes de leerlo como JSON.
    secret: el secreto del endpoint (whsec_...). header: la cabecera Svc-Signature."""
    if not header:
        return False
    timestamps, signatures = [], []
    for part in header.split(","):
        separator = part.find("=")
        if separator <= 0:
            continue
        key, value = part[:separator].strip(), part[separator + 1:].strip()
        if key == "t":
            timestamps.append(value)
        elif key == "v1":
            signatures.append(value)
    if len(timestamps) != 1 or not re.fullmatch(r"[0-9]{1,12}", timestamps[0]):
        return False
    timestamp = timestamps[0]
    if abs(int(time.time()) - int(timestamp)) > tolerance_seconds:
        return False
    expected = hmac.new(
        secret.encode("utf-8"), timestamp.encode("ascii") + b"." + raw_body, hashlib.sha256
    ).hexdigest()
    return any(
        re.fullmatch(r"[0-9a-fA-F]{64}", signature) and hmac.compare_digest(expected, signature.lower())
        for signature in signatures
    )
`;

export const WEBHOOK_SNIPPET_CSHARP = `using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

public static class SvcWebhook
{
    // rawBody: los bytes del cuerpo tal como llegaron, antes de leerlo como JSON.
    // secret: el secreto del endpoint (whsec_...). header: la cabecera Svc-Signature.
    public static bool Verify(string? header, byte[] rawBody, string secret, int toleranceSeconds = 300)
    {
        if (string.IsNullOrEmpty(header)) return false;
        var timestamps = new List<string>();
        var signatures = new List<string>();
        foreach (var part in header.Split(','))
        {
            var separator = part.IndexOf('=');
            if (separator <= 0) continue;
            var key = part[..separator].Trim();
            var value = part[(separator + 1)..].Trim();
            if (key == "t") timestamps.Add(value);
            else if (key == "v1") signatures.Add(value);
        }
        if (timestamps.Count != 1 || !Regex.IsMatch(timestamps[0], "^[0-9]{1,12}$")) return false;
        var timestamp = long.Parse(timestamps[0]);
        if (Math.Abs(DateTimeOffset.UtcNow.ToUnixTimeSeconds() - timestamp) > toleranceSeconds) return false;
        var prefix = Encoding.UTF8.GetBytes(timestamps[0] + ".");
        var payload = new byte[prefix.Length + rawBody.Length];
        prefix.CopyTo(payload, 0);
        rawBody.CopyTo(payload, prefix.Length);
        using var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret));
        var expected = hmac.ComputeHash(payload);
        foreach (var signature in signatures)
        {
            if (!Regex.IsMatch(signature, "^[0-9a-fA-F]{64}$")) continue;
            if (CryptographicOperations.FixedTimeEquals(Convert.FromHexString(signature), expected)) return true;
        }
        return false;
    }
}
`;

export const WEBHOOK_SNIPPETS = [
  { id: 'javascript', label: 'JavaScript (Node.js)', code: WEBHOOK_SNIPPET_JAVASCRIPT },
  { id: 'python', label: 'Python', code: WEBHOOK_SNIPPET_PYTHON },
  { id: 'csharp', label: 'C# (.NET)', code: WEBHOOK_SNIPPET_CSHARP },
] as const;
