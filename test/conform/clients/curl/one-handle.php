<?php
// The simple flow's payment after a company lookup, with PHP's curl functions on one handle, at libcurl's
// defaults but a timeout: the handle keeps its connection alive, so the payment goes on the lookup's. With
// the argument `no_content_type`, the body goes without a Content-Type of its own. Nothing else: no retry
// of its own, no result file. The test reads the requests the service received.
declare(strict_types=1);

$base = getenv('RELAY_BASE_URL');
$auth = 'Authorization: Bearer ' . getenv('RELAY_API_TOKEN');
$body = json_encode([
    'location' => getenv('RELAY_LOCATION_ID'),
    'vehicle' => ['owner' => getenv('RELAY_OWNER_KENNITALA'), 'plate' => getenv('RELAY_PLATE'), 'acquiredOn' => getenv('RELAY_REGISTRATION_DATE')],
    'visit' => ['startedOn' => getenv('RELAY_VISIT_START'), 'endedOn' => getenv('RELAY_VISIT_END')],
    'payment' => ['amount' => (int) getenv('RELAY_AMOUNT'), 'currency' => getenv('RELAY_CURRENCY')],
]);

$curl = curl_init();
curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT_MS => (int) getenv('RELAY_REQUEST_TIMEOUT_MS')]);
curl_setopt_array($curl, [CURLOPT_URL => "$base/rental-companies?kennitala=" . rawurlencode(getenv('RELAY_OWNER_KENNITALA')), CURLOPT_HTTPHEADER => [$auth]]);
curl_exec($curl);
$headers = ($argv[1] ?? '') === 'no_content_type' ? [$auth] : [$auth, 'Content-Type: application/json'];
curl_setopt_array($curl, [CURLOPT_URL => "$base/payment", CURLOPT_POST => true, CURLOPT_POSTFIELDS => $body, CURLOPT_HTTPHEADER => $headers]);
$answer = curl_exec($curl);
fwrite(STDERR, 'POST /payment -> ' . ($answer === false ? 'cURL error ' . curl_errno($curl) . ': ' . curl_error($curl) : curl_getinfo($curl, CURLINFO_RESPONSE_CODE)) . "\n");
