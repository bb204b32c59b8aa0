answer = { 'items' => [] }
puts answer.fetch('id')
