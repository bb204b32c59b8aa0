<?php
function amount(int $amount): int { return $amount; }
echo amount("2490 ISK");
