# A Ruby client that looks the company up, then dies reading a field the answer does not have:
# Ruby prints the error first (`…: key not found: "vehicleId" (KeyError)`) and its `from …` frames after.
require 'json'
require 'net/http'
require 'uri'

base = URI(ENV.fetch('RELAY_BASE_URL'))
request = Net::HTTP::Get.new("/rental-companies?kennitala=#{ENV.fetch('RELAY_OWNER_KENNITALA')}")
request['Authorization'] = "Bearer #{ENV.fetch('RELAY_API_TOKEN')}"
companies = JSON.parse(Net::HTTP.start(base.host, base.port) { |http| http.request(request) }.body)
puts companies.first.fetch('vehicleId')
