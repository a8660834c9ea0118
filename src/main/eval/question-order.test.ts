import { expect, it } from 'vitest'
import { orderAskedBy } from './question-order'

it.each([
  ['List the authors sorted by name', 'sorted'],
  ['Show the products in descending order of sales', 'in descending order'],
  ['Rank the regions by revenue', 'Rank'],
  ['Which are the top 5 products by revenue?', 'top 5'],
  ['Give the bottom three stores', 'bottom three'],
  ['Customers and their spend, highest first', 'highest first'],
  ['Revenue per month, from the earliest to the latest', 'from the earliest to the latest'],
  ['One row per month, in order.', 'in order'],
  ['List the cities alphabetically', 'alphabetically'],
  ['Order them by year', 'Order them by'],
  ['Order the results by revenue', 'Order the results by']
])('"%s" asks for an order ("%s")', (question, phrase) => {
  expect(orderAskedBy(question)).toBe(phrase)
})

it.each([
  'What is the total number of publications in each year?',
  'What is the average value of each order?',
  'How many orders were placed in 2024?',
  'Which customers placed an order in order to get the discount?',
  'Which product has the highest price?',
  'Who placed the order placed by Bob on Monday?'
])('"%s" asks for no order', (question) => {
  expect(orderAskedBy(question)).toBeNull()
})
