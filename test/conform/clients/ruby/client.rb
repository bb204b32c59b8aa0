#!/usr/bin/env ruby
# frozen_string_literal: true

# A location client in Ruby (3.1, Debian's ruby), on Net::HTTP or on Faraday 1.x (Debian's ruby-faraday)
# with its retry middleware: set up as docs/http-libraries.md ("Ruby") says, or keeping one default the
# guide names, so that the test can show what the kit makes of it:
#
#   ruby client.rb net-http [max_retries | timeouts | content_type]
#   ruby client.rb faraday [retry_defaults | no_date | short_max_interval]
#
# The flow is the Go example's: 3 attempts at a request; a POST whose answer was lost is never sent
# again blind (a vehicle is looked up first, a payment is `unknown`); exit 0 whatever the service says.
require 'json'

LAYER = ARGV[0]
KEEP = ARGV[1]
MAX_ATTEMPTS = 3
BACKOFF_S = 0.6 # before a retry after a 5xx that named no Retry-After: at least 500 ms
MAX_RETRY_AFTER_S = 10 # a longer wait keeps the customer standing there: give up instead

def env(name)
  value = ENV.fetch(name, '')
  abort("#{name} is not set") if value.empty? # exit 1 with the message: a runner bug
  value
end

BASE_URL = env('RELAY_BASE_URL').chomp('/')
TIMEOUT_S = Integer(ENV.fetch('RELAY_REQUEST_TIMEOUT_MS', '5000')) / 1000.0
HEADERS = { 'Authorization' => "Bearer #{env('RELAY_API_TOKEN')}", 'Accept' => 'application/json' }.freeze

# What one request came to: a status and a body the client could read, or none (lost, with why).
Answer = Struct.new(:status, :body, :lost, :retry_after, keyword_init: true) do
  def ok? = lost.nil? && (200..299).cover?(status)
  # The service may have done the request: no readable answer, or a 500, 502 or 504.
  def ambiguous? = !lost.nil? || [500, 502, 504].include?(status)
  def said = lost || "HTTP #{status}#{message_of(body).empty? ? '' : ": #{message_of(body)}"}"
end

def message_of(value) = value.is_a?(Hash) && value['message'].is_a?(String) ? value['message'] : ''
def id_of(value) = value.is_a?(Hash) && (value['id'].is_a?(String) || value['id'].is_a?(Integer)) ? value['id'].to_s : ''

# A 2xx counts only with its whole body, as JSON: Net::HTTP hands a cut-off body back without an error
# (ignore_eof), and a body cut halfway does not parse.
def answer_of(status, text, retry_after = nil)
  body = text.to_s.strip.empty? ? nil : JSON.parse(text)
  Answer.new(status: status, body: body, retry_after: retry_after)
rescue JSON::ParserError
  (200..299).cover?(status) ? Answer.new(lost: "HTTP #{status} with a body that is not JSON") : Answer.new(status: status, retry_after: retry_after)
end

# Net::HTTP, one connection kept alive for the visit, and the client's own loop of 3 attempts.
class NetHttpLayer
  def initialize
    require 'net/http'
    require 'time' # Time.httpdate, for a Retry-After date
    uri = URI(BASE_URL)
    @http = Net::HTTP.new(uri.host, uri.port)
    @http.use_ssl = uri.scheme == 'https'
    # Net::HTTP's own: 60 s to connect, to read and to write.
    @http.open_timeout = @http.read_timeout = @http.write_timeout = TIMEOUT_S unless KEEP == 'timeouts'
    # Net::HTTP's own, 1: a GET sent again at once after a reset, an early close or a read timeout.
    @http.max_retries = 0 unless KEEP == 'max_retries'
    @http.start
  end

  def call(method, path, body)
    answer = attempt(method, path, body)
    (MAX_ATTEMPTS - 1).times do
      wait = wait_before_retry(method, answer)
      break unless wait

      warn "  retrying #{method} #{path} in #{(wait * 1000).round} ms after: #{answer.said}"
      sleep wait
      answer = attempt(method, path, body)
    end
    answer
  end

  private

  def attempt(method, path, body)
    request = (method == 'GET' ? Net::HTTP::Get : Net::HTTP::Post).new(path, HEADERS)
    unless body.nil?
      request.body = JSON.generate(body)
      # Without it, Net::HTTP sends Content-Type: application/x-www-form-urlencoded.
      request['Content-Type'] = 'application/json' unless KEEP == 'content_type'
    end
    response = @http.request(request)
    answer_of(response.code.to_i, response.body, retry_after_s(response['Retry-After']))
  rescue Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout
    Answer.new(lost: "no answer within #{(TIMEOUT_S * 1000).round} ms")
  rescue IOError, SystemCallError, Net::ProtocolError => e
    Answer.new(lost: "the connection failed (#{e.class}: #{e.message})")
  end

  def retry_after_s(value)
    return nil if value.nil? || value.strip.empty?
    return Integer(value.strip) if value.strip.match?(/\A\d+\z/)

    [Time.httpdate(value.strip) - Time.now, 0].max
  rescue ArgumentError
    nil
  end

  # The wait before the next attempt, or nil to stop. A POST goes again only where the answer says
  # nothing was done (408, 429, 503); a GET also after no answer or a 5xx.
  def wait_before_retry(method, answer)
    if answer.lost.nil? && [429, 503].include?(answer.status)
      wait = answer.retry_after || BACKOFF_S
      return wait > MAX_RETRY_AFTER_S ? nil : wait + 0.1
    end
    return BACKOFF_S if answer.lost.nil? && answer.status == 408
    return nil unless method == 'GET'
    # A lookup after no answer or a 5xx: the same back-off (a library's own resend comes at once, so the
    # kit can tell the two apart).
    answer.lost.nil? && answer.status < 500 ? nil : BACKOFF_S
  end
end

# Faraday 1.x on its Net::HTTP adapter, its retry middleware making the 3 attempts.
class FaradayLayer
  def initialize
    require 'faraday'
    # Faraday 1.1's retry middleware reads a Retry-After date with DateTime, which it does not load.
    require 'date' unless KEEP == 'no_date'
    unreadable = Class.new(Faraday::Error)
    @unreadable = unreadable
    @connection = Faraday.new(url: BASE_URL, headers: HEADERS, request: { timeout: TIMEOUT_S, open_timeout: TIMEOUT_S }) do |f|
      f.request(:retry, **retry_options(unreadable))
      # A 2xx whose body is not JSON (cut off, a proxy's page) fails the attempt, so a GET goes again.
      f.use(Class.new(Faraday::Middleware) do
        define_method(:call) do |env|
          @app.call(env).tap do |response|
            next unless (200..299).cover?(response.status)

            JSON.parse(response.body.to_s)
          rescue JSON::ParserError
            raise unreadable.new("HTTP #{response.status} with a body that is not JSON", response)
          end
        end
      end)
      f.adapter :net_http
    end
  end

  def retry_options(unreadable)
    return {} if KEEP == 'retry_defaults'

    {
      max: MAX_ATTEMPTS - 1,
      interval: BACKOFF_S, backoff_factor: 2,
      # A Retry-After above it gives up (the retry is not sent sooner): the ceiling on a wait.
      max_interval: KEEP == 'short_max_interval' ? 0.5 : MAX_RETRY_AFTER_S,
      methods: [:get],
      retry_statuses: [408, 429, 500, 502, 503, 504],
      # Its own: timeouts only. A reset (ConnectionFailed) and an unreadable 2xx too; RetriableResponse
      # must stay, or a retry_statuses answer is raised to the caller.
      exceptions: [*Faraday::Request::Retry::DEFAULT_EXCEPTIONS, Faraday::ConnectionFailed, unreadable],
      # A POST only where the answer says nothing was done.
      retry_if: ->(_env, error) { error.is_a?(Faraday::RetriableResponse) && [408, 429, 503].include?(error.response.status) },
      retry_block: ->(env, _options, _left, error) { warn "  retrying #{env[:method].upcase} #{env[:url].request_uri} after: #{error.class}" },
    }
  end

  def call(method, path, body)
    headers = body.nil? ? {} : { 'Content-Type' => 'application/json' }
    response = @connection.run_request(method.downcase.to_sym, path, body && JSON.generate(body), headers)
    answer_of(response.status, response.body)
  rescue Faraday::TimeoutError
    Answer.new(lost: "no answer within #{(TIMEOUT_S * 1000).round} ms")
  rescue Faraday::Error => e
    Answer.new(lost: e.is_a?(@unreadable) ? e.message : "the connection failed (#{e.class}: #{e.message})")
  end
end

HTTP = { 'net-http' => NetHttpLayer, 'faraday' => FaradayLayer }.fetch(LAYER) { abort("usage: ruby client.rb net-http|faraday [default kept]") }.new

def call(method, path, body = nil)
  answer = HTTP.call(method, path, body)
  warn "#{method} #{path} -> #{answer.lost || answer.status}"
  answer
end

# The visit's end: what RELAY_RESULT_FILE gets.
class Finished < StandardError
  attr_reader :result

  def initialize(outcome, payment_id: nil, message: nil)
    super(message.to_s)
    @result = { outcome: outcome, paymentId: payment_id, message: message }.compact
  end
end

def require_2xx(what, answer)
  raise Finished.new('rejected', message: "#{what} failed: #{answer.said}") unless answer.ok?
end

def require_list(what, answer)
  require_2xx(what, answer)
  raise Finished.new('rejected', message: "#{what}: the answer is not a list") unless answer.body.is_a?(Array)

  answer.body
end

def require_id(what, value)
  id_of(value).empty? ? raise(Finished.new('rejected', message: "#{what}: the answer has no id")) : id_of(value)
end

def unknown(answer) = Finished.new('unknown', message: "the payment may or may not be recorded (#{answer.said}): look it up before charging again")
def query(value) = URI.encode_www_form_component(value).gsub('+', '%20')
def amount = Integer(env('RELAY_AMOUNT'), 10)
def look_up_vehicle = require_list('vehicle lookup', call('GET', "/vehicles?plate=#{query(env('RELAY_PLATE'))}"))

def advanced
  companies = require_list('rental company lookup', call('GET', "/rental-companies?kennitala=#{query(env('RELAY_OWNER_KENNITALA'))}"))
  raise Finished.new('skipped', message: 'the owner is not part of the service') if companies.empty?

  company_id = require_id('rental company lookup', companies[0])
  vehicles = look_up_vehicle
  if vehicles.empty?
    vehicle = { plate: env('RELAY_PLATE'), country: 'is' }
    created = call('POST', '/vehicles', vehicle)
    if created.ambiguous?
      # The vehicle may exist now: look before creating it again, or it exists twice.
      vehicles = look_up_vehicle
      created = call('POST', '/vehicles', vehicle) if vehicles.empty?
    end
    if vehicles.empty?
      require_2xx('vehicle creation', created)
      vehicle_id = require_id('vehicle creation', created.body)
    else
      vehicle_id = require_id('vehicle lookup', vehicles[0])
    end
    acquired_on = env('RELAY_REGISTRATION_DATE')
    acquired_on += ' 00:00:00' if acquired_on.match?(/\A\d{4}-\d{2}-\d{2}\z/)
    require_2xx('custodian creation', call('POST', '/custodians', { vehicleId: vehicle_id, rentalCompanyId: company_id, acquiredOn: acquired_on }))
  else
    vehicle_id = require_id('vehicle lookup', vehicles[0])
  end
  paid = call('POST', '/payments', {
    locationId: env('RELAY_LOCATION_ID'), vehicleId: vehicle_id,
    amount: { amount: amount, currency: env('RELAY_CURRENCY') },
    startedOn: env('RELAY_VISIT_START'), endedOn: env('RELAY_VISIT_END'), status: 'new',
  })
  raise unknown(paid) if paid.ambiguous?

  require_2xx('payment creation', paid)
  raise Finished.new('paid', payment_id: require_id('payment creation', paid.body))
end

def simple
  paid = call('POST', '/payment', {
    location: env('RELAY_LOCATION_ID'),
    vehicle: { owner: env('RELAY_OWNER_KENNITALA'), plate: env('RELAY_PLATE'), acquiredOn: env('RELAY_REGISTRATION_DATE') },
    visit: { startedOn: env('RELAY_VISIT_START'), endedOn: env('RELAY_VISIT_END') },
    payment: { amount: amount, currency: env('RELAY_CURRENCY') },
  })
  body = paid.lost.nil? ? paid.body : nil
  raise Finished.new('paid', payment_id: id_of(body), message: message_of(body)) unless id_of(body).empty?
  raise unknown(paid) if paid.ambiguous?

  raise Finished.new('rejected', message: message_of(body).empty? ? "the answer has no id and no message (#{paid.said})" : message_of(body))
end

begin
  env('RELAY_FLOW') == 'simple' ? simple : advanced
rescue Finished => e
  warn "outcome: #{JSON.generate(e.result)}"
  File.write(ENV['RELAY_RESULT_FILE'], JSON.generate(e.result)) unless ENV.fetch('RELAY_RESULT_FILE', '').empty?
end
