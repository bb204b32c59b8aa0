# A Ruby client of the advanced flow on Net::HTTP at its defaults, as the standard library's
# documentation writes it: one connection per request, a timeout on each (RELAY_REQUEST_TIMEOUT_MS),
# and a loop of its own that sends a lookup again 0.5 s after a lost answer or a 5xx, 3 attempts in
# all. Net::HTTP's max_retries is 1: it sends a GET again by itself, at once, on a new connection,
# after a reset, an early close or a read timeout. NET_HTTP_MAX_RETRIES=0 turns that off.
require 'json'
require 'net/http'
require 'uri'

BASE = URI(ENV.fetch('RELAY_BASE_URL'))
TIMEOUT = Integer(ENV.fetch('RELAY_REQUEST_TIMEOUT_MS', '5000')) / 1000.0
MAX_RETRIES = ENV['NET_HTTP_MAX_RETRIES']

def send_request(request)
  http = Net::HTTP.new(BASE.host, BASE.port)
  http.open_timeout = TIMEOUT
  http.read_timeout = TIMEOUT
  http.max_retries = Integer(MAX_RETRIES) if MAX_RETRIES
  request['Authorization'] = "Bearer #{ENV.fetch('RELAY_API_TOKEN')}"
  http.start { |connection| connection.request(request) }
rescue Net::ReadTimeout, Net::OpenTimeout, IOError, SystemCallError => e
  warn "#{request.method} #{request.path}: #{e.class}: #{e.message}"
  nil
end

def call(method, path, body = nil)
  3.times do |attempt|
    sleep 0.5 if attempt > 0
    request = method == 'GET' ? Net::HTTP::Get.new(path) : Net::HTTP::Post.new(path, 'Content-Type' => 'application/json')
    request.body = JSON.generate(body) if body
    response = send_request(request)
    lost = response.nil? || response.code.start_with?('5')
    return response unless lost && method == 'GET'
  end
  nil
end

def report(outcome, payment_id = nil)
  File.write(ENV.fetch('RELAY_RESULT_FILE'), JSON.generate({ outcome: outcome, paymentId: payment_id }.compact))
  exit 0
end

def list(path)
  response = call('GET', path)
  report('rejected') unless response.is_a?(Net::HTTPSuccess)
  JSON.parse(response.body)
end

companies = list("/rental-companies?kennitala=#{URI.encode_www_form_component(ENV.fetch('RELAY_OWNER_KENNITALA'))}")
report('skipped') if companies.empty?
vehicles = list("/vehicles?plate=#{URI.encode_www_form_component(ENV.fetch('RELAY_PLATE'))}")
report('rejected') if vehicles.empty?
payment = {
  locationId: ENV.fetch('RELAY_LOCATION_ID'), vehicleId: vehicles.first.fetch('id'),
  amount: { amount: Integer(ENV.fetch('RELAY_AMOUNT')), currency: ENV.fetch('RELAY_CURRENCY') },
  startedOn: ENV.fetch('RELAY_VISIT_START'), endedOn: ENV.fetch('RELAY_VISIT_END'), status: 'new'
}
response = call('POST', '/payments', payment)
report('unknown') if response.nil? || %w[500 502 504].include?(response.code)
report('rejected') unless response.is_a?(Net::HTTPSuccess)
report('paid', JSON.parse(response.body).fetch('id'))
